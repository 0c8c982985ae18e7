package dev.distlock.spring.boot;

import dev.distlock.testsupport.RedisExtension;
import dev.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** The starter's one INFO line at startup says where the locks go and the defaults every lock call starts from. */
@ExtendWith(OutputCaptureExtension.class)
class LockStartupReportTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(BootLine.DATA_REDIS,
                DistributedLockAutoConfiguration.class));

    @Test
    void oneLineNamesTargetTopologyInstanceAndDefaultsWithDurationsAsWritten(CapturedOutput output) {
        RedisServer server = redis.server();
        this.contextRunner
            .withPropertyValues("spring.data.redis.host=" + server.host(), "spring.data.redis.port=" + server.port(),
                    "distributed-lock.instance-id=orders-1", "distributed-lock.wait-time=100ms",
                    "distributed-lock.lease-time=1500ms", "distributed-lock.lost-lease-policy=interrupt")
            .run((context) -> assertThat(context).hasNotFailed());

        assertThat(output.getOut().lines().filter((line) -> line.contains("Distributed locks on Redis")))
            .singleElement().asString()
            .contains("INFO")
            .contains("Distributed locks on Redis " + server.host() + ":" + server.port()
                    + " (standalone), the application's spring.data.redis.* connection: instance orders-1, lease 1500ms"
                    + " renewed every 500ms, wait 100ms, lost-lease policy interrupt, operation timeout 3s, fencing on,"
                    + " key prefix 'lock:'")
            .doesNotContain("PT");
    }

    @Test
    void dedicatedConnectionIsNamedAsSuch(CapturedOutput output) {
        RedisServer server = redis.server();
        this.contextRunner
            .withPropertyValues("distributed-lock.redis.url=redis://" + server.host() + ":" + server.port(),
                    "distributed-lock.replica-acks.count=0")
            .run((context) -> assertThat(context).hasNotFailed());

        assertThat(output.getOut()).contains("Distributed locks on Redis " + server.host() + ":" + server.port()
                + " (standalone), the dedicated distributed-lock.redis.* connection: instance ");
    }
}
