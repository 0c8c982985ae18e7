package dev.distlock.spring.boot;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.distlock.core.LockException;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockTemplate;
import dev.distlock.core.RedisLockClient;
import dev.distlock.core.ReplicaAckPolicy;
import dev.distlock.spring.annotation.LockContext;
import dev.distlock.testsupport.RedisSentinelSet;
import dev.distlock.testsupport.RedisTopologyExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Locks on a Sentinel-managed master with one replica and three real Sentinels: through the application's
 * {@code spring.data.redis.sentinel.*} connection and through a dedicated {@code distributed-lock.redis.sentinel.*}
 * one, with and without replica acknowledgement.
 */
class SentinelConnectionTests {

    @RegisterExtension
    static final RedisTopologyExtension<RedisSentinelSet> sentinels = RedisTopologyExtension.sentinel(1);

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(BootLine.DATA_REDIS,
                DistributedLockAutoConfiguration.class))
        .withBean(LockedRunner.class);

    private ApplicationContextRunner applicationSentinel;

    @BeforeEach
    void applicationSentinel() {
        this.applicationSentinel = this.contextRunner.withPropertyValues(
                "spring.data.redis.sentinel.master=" + RedisSentinelSet.MASTER_NAME,
                "spring.data.redis.sentinel.nodes=" + sentinelNodes());
    }

    @Test
    void annotatedMethodsLockOnTheMasterOfTheApplicationsSentinelConnection() {
        this.applicationSentinel.run((context) -> {
            assertThat(context).hasSingleBean(SharedLockClient.class).doesNotHaveBean(DedicatedLockConnection.class);
            LockedRunner runner = context.getBean(LockedRunner.class);
            String master = sentinels.get().master().uri();
            assertThat(runner.reentrant("s1", () -> RedisKeys.keys(master, "lock:*"))).contains("lock:{run:s1}");
            assertThat(runner.write("s2", () -> RedisKeys.keys(master, "lock:*"))).contains("lock:{rw:s2}:write");
            Map<String, Long> tokens = runner.multi(List.of("s3", "s4"),
                    () -> LockContext.currentLease().orElseThrow().fencingTokens());
            assertThat(tokens).containsOnlyKeys("run:s3", "run:s4");
            assertThat(RedisKeys.keys(master, "lock:{run:s*}")).isEmpty();
        });
    }

    @Test
    void dedicatedSentinelConnectionLocksOnTheMasterTheSentinelsName() {
        this.contextRunner
            .withPropertyValues("distributed-lock.redis.sentinel.master=" + RedisSentinelSet.MASTER_NAME,
                    "distributed-lock.redis.sentinel.nodes=" + sentinelNodes())
            .run((context) -> {
                assertThat(context).hasSingleBean(DedicatedLockConnection.class);
                try (LockLease lease = context.getBean(LockTemplate.class).acquire("via-sentinel")) {
                    assertThat(lease.isHeld()).isTrue();
                    assertThat(RedisKeys.keys(sentinels.get().master().uri(), "*")).contains("lock:{via-sentinel}");
                }
            });
    }

    @Test
    void grantsAcknowledgedByTheReplicaSucceed() {
        this.applicationSentinel
            .withPropertyValues("distributed-lock.replica-acks.count=1", "distributed-lock.replica-acks.timeout=500ms")
            .run((context) -> {
                assertThat(context.getBean(RedisLockClient.class).options().replicaAcks()).isEqualTo(1);
                assertThat(context.getBean(LockedRunner.class).reentrant("acked", () -> "ran")).isEqualTo("ran");
            });
    }

    @Test
    void tooFewReplicaAcksFailTheAcquisitionAndReleaseTheGrant() {
        this.applicationSentinel
            .withPropertyValues("distributed-lock.replica-acks.count=2", "distributed-lock.replica-acks.timeout=100ms",
                    "distributed-lock.replica-acks.policy=fail")
            .run((context) -> {
                assertThat(context.getBean(RedisLockClient.class).options().replicaAckPolicy())
                    .isEqualTo(ReplicaAckPolicy.FAIL);
                LockedRunner runner = context.getBean(LockedRunner.class);
                assertThatExceptionOfType(LockException.class)
                    .isThrownBy(() -> runner.reentrant("unacked", () -> "ran"))
                    .withMessageContaining("replicas");
                assertThat(RedisKeys.keys(sentinels.get().master().uri(), "lock:{run:unacked}")).isEmpty();
            });
    }

    @Test
    void tooFewReplicaAcksOnlyWarnWithTheWarnPolicy() {
        this.applicationSentinel
            .withPropertyValues("distributed-lock.replica-acks.count=2", "distributed-lock.replica-acks.timeout=100ms",
                    "distributed-lock.replica-acks.policy=warn")
            .run((context) -> assertThat(context.getBean(LockedRunner.class).reentrant("warned", () -> "ran"))
                .isEqualTo("ran"));
    }

    private static String sentinelNodes() {
        return sentinels.get()
            .sentinels()
            .stream()
            .map((sentinel) -> sentinel.host() + ":" + sentinel.port())
            .collect(Collectors.joining(","));
    }
}
