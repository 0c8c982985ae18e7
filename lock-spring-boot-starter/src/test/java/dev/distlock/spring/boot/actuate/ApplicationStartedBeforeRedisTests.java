package dev.distlock.spring.boot.actuate;

import java.time.Duration;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockOperationException;
import dev.distlock.core.LockTemplate;
import dev.distlock.core.RedisLockClient;
import dev.distlock.spring.boot.BootLine;
import dev.distlock.spring.boot.DistributedLockAutoConfiguration;
import dev.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@code distributed-lock.require-redis-at-startup=false}: the application starts while its Redis is not up (a pod
 * that starts before Redis), lock calls fail fast and health is DOWN until redis-server starts, then both work.
 * Without the property, the same start fails.
 */
@Timeout(60)
class ApplicationStartedBeforeRedisTests {

    private RedisServer redis;

    private ApplicationContextRunner contextRunner;

    @BeforeEach
    void redisNotStartedYet() {
        this.redis = RedisServer.start();
        this.redis.stop();
        this.contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BootLine.DATA_REDIS,
                    DistributedLockAutoConfiguration.class, EndpointAutoConfiguration.class,
                    DistributedLockActuatorAutoConfiguration.class))
            .withPropertyValues("spring.data.redis.host=" + this.redis.host(),
                    "spring.data.redis.port=" + this.redis.port(), "distributed-lock.operation-timeout=10s");
    }

    @AfterEach
    void stopRedis() {
        this.redis.close();
    }

    @Test
    void startsWithoutRedisFailsFastAndIsDownUntilRedisStartsThenLocks() {
        this.contextRunner.withPropertyValues("distributed-lock.require-redis-at-startup=false").run((context) -> {
            assertThat(context).hasNotFailed();
            LockTemplate template = context.getBean(LockTemplate.class);
            assertThat(BootLine.health(context).status()).isEqualTo("DOWN");

            long start = System.nanoTime();
            assertThatExceptionOfType(LockOperationException.class)
                .isThrownBy(() -> template.execute("orders:1", (lease) -> "never"))
                .withMessageContaining("not connected to Redis at " + this.redis.host() + ":" + this.redis.port());
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));

            this.redis.restart();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> context.getBean(RedisLockClient.class).isConnected());
            assertThat(BootLine.health(context).status()).isEqualTo("UP");
            try (LockLease lease = template.acquire("orders:1")) {
                assertThat(lease.fencingToken()).isPositive();
            }
        });
    }

    @Test
    void byDefaultTheStartFailsWhenRedisIsNotUp() {
        this.contextRunner.run((context) -> assertThat(context).hasFailed());
    }
}
