package dev.distlock.spring.boot.diagnostics;

import dev.distlock.spring.boot.BootLine;
import dev.distlock.spring.boot.DistributedLockAutoConfiguration;
import java.io.IOException;
import java.net.ServerSocket;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

class FailureAnalyzersTests {

    @Test
    void unreachableRedisAtStartupGetsADescriptionAndAnAction() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BootLine.DATA_REDIS,
                    DistributedLockAutoConfiguration.class))
            .withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + port,
                    "spring.data.redis.connect-timeout=500ms")
            .run((context) -> {
                assertThat(context).hasFailed();
                FailureAnalysis analysis = new RedisUnreachableFailureAnalyzer().analyze(context.getStartupFailure());
                assertThat(analysis).isNotNull();
                assertThat(analysis.getDescription()).startsWith("Could not connect to Redis for distributed locks")
                    .contains(String.valueOf(port));
                assertThat(analysis.getAction()).contains("spring.data.redis.*", "distributed-lock.redis.*");
            });
    }

    @Test
    void invalidDeclarationsAreReportedWithTheValidatorsMessage() {
        BeanCreationException failure = new BeanCreationException("bean", "creation failed",
                new IllegalStateException("Invalid @DistributedLock on Orders.place(String): key '#nope' names no"
                        + " parameter"));
        FailureAnalysis analysis = new InvalidLockDeclarationFailureAnalyzer().analyze(failure);
        assertThat(analysis.getDescription()).startsWith("Invalid @DistributedLock on Orders.place(String)");
        assertThat(analysis.getAction()).contains("-parameters");
        assertThat(new InvalidLockDeclarationFailureAnalyzer().analyze(new IllegalStateException("other"))).isNull();
    }
}
