package dev.distlock.spring.boot;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.distlock.spring.annotation.LockContext;
import dev.distlock.testsupport.RedisClusterSet;
import dev.distlock.testsupport.RedisServerOptions;
import dev.distlock.testsupport.RedisTopologyExtension;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Locks on a real Redis Cluster of 3 masters: through the application's {@code spring.data.redis.cluster.*}
 * connection and through a dedicated {@code distributed-lock.redis.cluster.*} one.
 */
class ClusterConnectionTests {

    @RegisterExtension
    static final RedisTopologyExtension<RedisClusterSet> cluster = RedisTopologyExtension.of("Cluster 3+0",
            () -> RedisClusterSet.start(3, 0, RedisServerOptions.defaults()));

    /** Keys whose locks live on more than one master. */
    private static final List<String> SPREAD = List.of("1", "2", "3", "4", "5", "6");

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(BootLine.DATA_REDIS,
                DistributedLockAutoConfiguration.class))
        .withBean(LockedRunner.class);

    @Test
    void annotatedMethodsLockOnTheApplicationsCluster() {
        this.contextRunner.withPropertyValues("spring.data.redis.cluster.nodes=" + clusterNodes()).run((context) -> {
            assertThat(context).hasSingleBean(SharedLockClient.class).doesNotHaveBean(DedicatedLockConnection.class);
            LockedRunner runner = context.getBean(LockedRunner.class);
            assertLocksOnTheOwningMaster(runner);
            assertThat(runner.fair("c2", () -> "fair")).isEqualTo("fair");
            assertThat(runner.read("c3", () -> runner.read("c3", () -> "read twice"))).isEqualTo("read twice");
            assertThat(runner.write("c4", () -> "written")).isEqualTo("written");
        });
    }

    @Test
    void multiKeyLockSpansSlotsOnTheApplicationsCluster() {
        this.contextRunner.withPropertyValues("spring.data.redis.cluster.nodes=" + clusterNodes())
            .run((context) -> assertMultiKeyLockSpansMasters(context.getBean(LockedRunner.class)));
    }

    @Test
    void dedicatedClusterConnectionLocksAcrossSlots() {
        this.contextRunner
            .withPropertyValues("distributed-lock.redis.cluster.nodes=" + clusterNodes(),
                    "distributed-lock.redis.cluster.max-redirects=3", "distributed-lock.redis.timeout=2s")
            .run((context) -> {
                assertThat(context).hasSingleBean(DedicatedLockConnection.class)
                    .doesNotHaveBean(SharedLockClient.class);
                RedisClusterClient client = (RedisClusterClient) context.getBean(DedicatedLockConnection.class)
                    .client();
                assertThat(((ClusterClientOptions) client.getOptions()).getMaxRedirects()).isEqualTo(3);
                LockedRunner runner = context.getBean(LockedRunner.class);
                assertLocksOnTheOwningMaster(runner);
                assertMultiKeyLockSpansMasters(runner);
            });
    }

    @Test
    void replicaAcksAreRefusedOnClusterNamingTheProperty() {
        this.contextRunner
            .withPropertyValues("spring.data.redis.cluster.nodes=" + clusterNodes(),
                    "distributed-lock.replica-acks.count=1")
            .run((context) -> assertThat(context).getFailure()
                .rootCause()
                .hasMessageContaining("distributed-lock.replica-acks.count is not supported on Redis Cluster")
                .hasMessageContaining("spring.data.redis"));
    }

    private static void assertLocksOnTheOwningMaster(LockedRunner runner) throws Exception {
        String key = "lock:{run:c1}";
        String owner = cluster.get().masterOfKey(key).uri();
        assertThat(runner.reentrant("c1", () -> RedisKeys.keys(owner, "lock:*"))).contains(key);
        assertThat(RedisKeys.keys(owner, key)).isEmpty();
    }

    private static void assertMultiKeyLockSpansMasters(LockedRunner runner) throws Exception {
        RedisClusterSet set = cluster.get();
        assertThat(SPREAD.stream().map((id) -> set.masterOfKey("lock:{run:" + id + "}")).distinct().count())
            .as("the keys live on more than one master")
            .isGreaterThan(1);
        Map<String, Long> tokens = runner.multi(SPREAD, () -> {
            for (String id : SPREAD) {
                String key = "lock:{run:" + id + "}";
                assertThat(RedisKeys.keys(set.masterOfKey(key).uri(), key)).as("%s on its master", key)
                    .containsExactly(key);
            }
            return LockContext.currentLease().orElseThrow().fencingTokens();
        });
        assertThat(tokens).hasSize(SPREAD.size()).allSatisfy((name, token) -> assertThat(token).isPositive());
        for (String id : SPREAD) {
            String key = "lock:{run:" + id + "}";
            assertThat(RedisKeys.keys(set.masterOfKey(key).uri(), key)).isEmpty();
        }
    }

    private static String clusterNodes() {
        return cluster.get()
            .nodes()
            .stream()
            .map((node) -> node.host() + ":" + node.port())
            .collect(Collectors.joining(","));
    }
}
