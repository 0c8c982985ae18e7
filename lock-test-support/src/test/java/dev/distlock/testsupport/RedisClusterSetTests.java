package dev.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class RedisClusterSetTests {

    @RegisterExtension
    static final RedisTopologyExtension<RedisClusterSet> redis = RedisTopologyExtension.cluster();

    @Test
    void formsAHealthyClusterThatLettuceUses() {
        RedisClusterSet cluster = redis.get();
        assertThat(cluster.masters()).hasSize(3);
        for (RedisServer master : cluster.masters()) {
            assertThat(cluster.replicasOf(master)).hasSize(1);
        }
        withClient(cluster, commands -> {
            for (int i = 0; i < 50; i++) {
                commands.set("key" + i, "v" + i);
            }
            assertThat(commands.get("key7")).isEqualTo("v7");
        });
    }

    @Test
    void migratingASlotMovesItsKeysAndClientsFollowTheRedirect() {
        RedisClusterSet cluster = redis.get();
        String key = "lock:{orders:42}";
        int slot = SlotHash.getSlot(key);
        withClient(cluster, commands -> {
            commands.set(key, "owner");
            commands.set(key + ":fence", "7");
            RedisServer source = cluster.masterOfSlot(slot);
            RedisServer target = cluster.masters().stream().filter(m -> m != source).findFirst().orElseThrow();

            ClusterSlotMigration migration = cluster.beginMigration(slot, target);
            migration.moveKeys();
            assertThat(commands.get(key)).as("ASK redirect while migrating").isEqualTo("owner");
            migration.finish();

            assertThat(cluster.masterOfSlot(slot)).isSameAs(target);
            assertThat(commands.get(key)).as("MOVED redirect after migration").isEqualTo("owner");
            assertThat(commands.get(key + ":fence")).isEqualTo("7");
        });
    }

    @Test
    void manualAndForcedFailoversPromoteReplicas() {
        RedisClusterSet cluster = redis.get();
        int slot = SlotHash.getSlot("failover-key");
        withClient(cluster, commands -> {
            RedisServer master = cluster.masterOfSlot(slot);
            assertThat(TestRedis.setAndWait(master, "failover-key", "1", 1)).isEqualTo(1);

            RedisServer replica = cluster.replicasOf(master).get(0);
            cluster.manualFailover(replica, Duration.ofSeconds(20));
            assertThat(cluster.masterOfSlot(slot)).isSameAs(replica);
            assertThat(cluster.replicasOf(replica)).containsExactly(master);

            RedisServer killed = cluster.killMaster(replica);
            long killedAt = System.nanoTime();
            RedisServer promoted = cluster.awaitFailover(killed, slot, Duration.ofSeconds(30));
            System.out.println("cluster failover after kill -9 took " + (System.nanoTime() - killedAt) / 1_000_000
                    + " ms");
            assertThat(promoted).isSameAs(master);

            killed.restart();
            cluster.awaitHealthy(Duration.ofSeconds(30));
            assertThat(cluster.replicasOf(promoted)).containsExactly(killed);
        });
    }

    @SuppressWarnings("deprecation") // adaptive refresh on MOVED/ASK and reconnects is what a fault test wants
    private static void withClient(RedisClusterSet cluster, java.util.function.Consumer<
            RedisAdvancedClusterCommands<String, String>> body) {
        List<RedisURI> seeds = cluster.seedUris().stream().map(RedisURI::create).collect(Collectors.toList());
        RedisClusterClient client = RedisClusterClient.create(seeds);
        client.setOptions(ClusterClientOptions.builder().topologyRefreshOptions(ClusterTopologyRefreshOptions
                .builder().enableAllAdaptiveRefreshTriggers().build()).build());
        try (StatefulRedisClusterConnection<String, String> connection = client.connect()) {
            body.accept(connection.sync());
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
