package dev.distlock.spring.boot.diagnostics;

import java.util.stream.Stream;

import dev.distlock.spring.annotation.DistributedLock;
import dev.distlock.spring.annotation.OnNotAcquired;
import dev.distlock.spring.boot.BootLine;
import dev.distlock.spring.boot.DistributedLockAutoConfiguration;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Each kind of invalid {@code @DistributedLock} declaration ends a real {@link SpringApplication} start in Boot's
 * short "APPLICATION FAILED TO START" report with the library's description and action, not a stack trace. No Redis
 * is needed: the lock client starts without it ({@code require-redis-at-startup=false}).
 */
@ExtendWith(OutputCaptureExtension.class)
@Timeout(120)
class InvalidDeclarationStartupReportTests {

    static Stream<Arguments> declarations() {
        return Stream.of(Arguments.of(BadSpel.class, "is not a valid SpEL expression"),
                Arguments.of(UnknownParameter.class, "#nope"),
                Arguments.of(FinalMethod.class, "final"),
                Arguments.of(PrivateMethod.class, "private"),
                Arguments.of(FinalClass.class, "final"),
                Arguments.of(SkipOnPrimitive.class, "SKIP"),
                Arguments.of(MissingFallback.class, "noSuchFallback"));
    }

    @ParameterizedTest
    @MethodSource("declarations")
    void endsInTheShortReportNamingTheDeclaration(Class<?> service, String detail, CapturedOutput output) {
        SpringApplication application = new SpringApplication(Locks.class, service);
        application.setWebApplicationType(WebApplicationType.NONE);
        assertThatException().isThrownBy(() -> application.run("--spring.data.redis.port=1",
                "--distributed-lock.require-redis-at-startup=false", "--spring.main.banner-mode=off"));

        String report = output.getAll().substring(output.getAll().lastIndexOf("APPLICATION FAILED TO START"));
        assertThat(report).contains("Description:", "Invalid @DistributedLock on", service.getSimpleName(), detail,
                "Action:");
        assertThat(report).doesNotContain("CGLIB", "\tat ");
    }

    @Configuration(proxyBeanMethods = false)
    @Import(BootLine.DataRedis.class)
    @ImportAutoConfiguration(DistributedLockAutoConfiguration.class)
    static class Locks {

    }

    static class BadSpel {

        @DistributedLock(key = "#id +")
        public void run(String id) {
        }
    }

    static class UnknownParameter {

        @DistributedLock(key = "#nope")
        public void run(String id) {
        }
    }

    static class FinalMethod {

        @DistributedLock(key = "#id")
        public final void run(String id) {
        }
    }

    static class PrivateMethod {

        @DistributedLock(key = "#id")
        private void run(String id) {
        }

        void call() {
            run("x");
        }
    }

    static final class FinalClass {

        @DistributedLock(key = "#id")
        public void run(String id) {
        }
    }

    static class SkipOnPrimitive {

        @DistributedLock(key = "#id", onNotAcquired = OnNotAcquired.SKIP)
        public int run(String id) {
            return 1;
        }
    }

    static class MissingFallback {

        @DistributedLock(key = "#id", onNotAcquired = OnNotAcquired.FALLBACK, fallback = "noSuchFallback")
        public void run(String id) {
        }
    }
}
