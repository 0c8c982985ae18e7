package dev.distlock.spring.boot;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.RedLockClient;
import dev.distlock.spring.annotation.LockContext;
import dev.distlock.spring.boot.observation.DistributedLockMetricsAutoConfiguration;
import dev.distlock.testsupport.RedisExtension;
import dev.distlock.testsupport.RedisServer;
import io.lettuce.core.RedisClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code distributed-lock.redlock.*}: the RedLockClient bean and {@code @DistributedLock(type = REDLOCK)}. */
@SuppressWarnings("try") // leases held open only to keep a lock busy
class RedLockAutoConfigurationTests {

    /** Three independent masters; the first is also the application's Redis. */
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.independent(3);

    private final ApplicationContextRunner contextRunner = LockContextRunners
        .withRedis(redis.server(0).host(), redis.server(0).port())
        .withConfiguration(AutoConfigurations.of(DistributedLockMetricsAutoConfiguration.class));

    private final ApplicationContextRunner withNodes = this.contextRunner
        .withPropertyValues("distributed-lock.redlock.nodes=" + String.join(",", redis.uris()));

    @BeforeEach
    void flush() {
        redis.flushAll();
    }

    @Test
    void redLockClientExistsOnlyWithNodes() {
        this.contextRunner.run((context) -> assertThat(context).hasNotFailed()
            .doesNotHaveBean(RedLockClient.class)
            .doesNotHaveBean(RedLockConnections.class));
        this.withNodes.withPropertyValues("distributed-lock.redlock.node-timeout=150ms").run((context) -> {
            assertThat(context).hasSingleBean(RedLockClient.class).hasSingleBean(RedLockConnections.class);
            assertThat(context.getBean(RedLockClient.class).size()).isEqualTo(3);
        });
    }

    @Test
    void redLockMethodHoldsTheLockOnEveryMaster() {
        this.withNodes.withBean(RedLockedRunner.class).run((context) -> {
            RedLockedRunner runner = context.getBean(RedLockedRunner.class);
            long token = runner.redLock("p1", () -> {
                for (RedisServer server : redis.servers()) {
                    assertThat(RedisKeys.keys(server.uri(), "lock:*")).as("keys on %s", server)
                        .contains("lock:{pay:p1}");
                }
                return LockContext.currentLease().orElseThrow().fencingToken();
            });
            assertThat(token).isPositive();
            for (RedisServer server : redis.servers()) {
                assertThat(RedisKeys.keys(server.uri(), "lock:{pay:p1}")).isEmpty();
            }
        });
    }

    @Test
    void nestedRedLockCallReenters() {
        this.withNodes.withBean(RedLockedRunner.class).run((context) -> {
            RedLockedRunner runner = context.getBean(RedLockedRunner.class);
            List<Long> tokens = runner.redLock("p2", () -> List.of(
                    LockContext.currentLease().orElseThrow().fencingToken(),
                    runner.redLockOnce("p2", () -> LockContext.currentLease().orElseThrow().fencingToken())));
            assertThat(tokens.get(1)).isEqualTo(tokens.get(0));
        });
    }

    @Test
    void busyRedLockIsNotAcquired() {
        this.withNodes.withBean(RedLockedRunner.class).run((context) -> {
            RedLockedRunner runner = context.getBean(RedLockedRunner.class);
            try (LockLease held = context.getBean(RedLockClient.class).getLock("pay:p3").acquire(Duration.ZERO)) {
                CompletableFuture<String> other = CompletableFuture
                    .supplyAsync(() -> Unchecked.call(() -> runner.redLockOnce("p3", () -> "ran")));
                assertThat(other).failsWithin(Duration.ofSeconds(5))
                    .withThrowableOfType(Exception.class)
                    .havingRootCause()
                    .isInstanceOf(LockNotAcquiredException.class);
            }
        });
    }

    @Test
    void aPausedMasterDoesNotPreventTheLock() {
        this.withNodes.withPropertyValues("distributed-lock.redlock.node-timeout=100ms")
            .withBean(RedLockedRunner.class)
            .run((context) -> {
                RedLockedRunner runner = context.getBean(RedLockedRunner.class);
                RedisServer paused = redis.server(2);
                paused.pause();
                try {
                    long started = System.nanoTime();
                    assertThat(runner.redLock("p4", () -> "ran with 2 of 3")).isEqualTo("ran with 2 of 3");
                    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
                }
                finally {
                    paused.resume();
                }
            });
    }

    @Test
    void redLockLeasesHaveAGauge() {
        this.withNodes.withBean(SimpleMeterRegistry.class).run((context) -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            try (LockLease lease = context.getBean(RedLockClient.class).getLock("gauged").acquire(Duration.ZERO)) {
                assertThat(registry.get("distlock.leases.active").tag("client", "redlock").gauge().value())
                    .isEqualTo(1.0);
            }
        });
    }

    @Test
    void contextCloseShutsTheMasterConnectionsDown() {
        String clientsBefore = RedisKeys.clientList(redis.server(1).uri());
        this.withNodes.run((context) -> assertThat(countLines(RedisKeys.clientList(redis.server(1).uri())))
            .isGreaterThan(countLines(clientsBefore)));
        assertThat(countLines(RedisKeys.clientList(redis.server(1).uri()))).isEqualTo(countLines(clientsBefore));
    }

    @Test
    void applicationRedLockClientIsUsedWithoutNodes() {
        this.contextRunner.withUserConfiguration(UserRedLock.class).withBean(RedLockedRunner.class).run((context) -> {
            assertThat(context).hasSingleBean(RedLockClient.class).doesNotHaveBean(RedLockConnections.class);
            assertThat(context.getBean(RedLockedRunner.class)
                .redLock("p5", () -> RedisKeys.keys(redis.server(1).uri(), "mine:*"))).contains("mine:{pay:p5}");
        });
    }

    private static long countLines(String text) {
        return text.lines().filter((line) -> !line.isBlank()).count();
    }

    @Configuration(proxyBeanMethods = false)
    static class UserRedLock {

        @Bean
        Masters userRedLockMasters() {
            return new Masters(redis.uris().stream().map(RedisClient::create).collect(Collectors.toList()));
        }

        @Bean(destroyMethod = "close")
        RedLockClient userRedLockClient(Masters userRedLockMasters) {
            return RedLockClient.create(userRedLockMasters.clients(),
                    LockClientOptions.builder().keyPrefix("mine:").build(), RedLockClient.DEFAULT_NODE_TIMEOUT);
        }
    }

    /** The application's own Lettuce clients, shut down when the context closes. */
    record Masters(List<RedisClient> clients) implements AutoCloseable {

        @Override
        public void close() {
            this.clients.forEach(RedisClient::shutdown);
        }
    }
}
