package dev.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class RedisSentinelSetTests {

    @RegisterExtension
    static final RedisTopologyExtension<RedisSentinelSet> redis = RedisTopologyExtension.sentinel(2);

    @Test
    void lettuceConnectsThroughTheSentinelsAndFollowsAKilledMaster() {
        RedisSentinelSet set = redis.get();
        assertThat(set.sentinelUri()).startsWith("redis-sentinel://127.0.0.1:").endsWith("#mymaster");
        RedisServer first = set.master();
        assertThat(set.dataServers()).contains(first);
        assertThat(set.replicas()).hasSize(2);

        RedisClient client = RedisClient.create(RedisURI.create(set.sentinelUri()));
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            connection.sync().set("k", "v");
            connection.sync().waitForReplication(2, 2_000);

            RedisServer killed = set.killMaster();
            long killedAt = System.nanoTime();
            RedisServer promoted = set.awaitFailover(killed, Duration.ofSeconds(30));
            long tookMillis = (System.nanoTime() - killedAt) / 1_000_000;
            System.out.println("sentinel failover after kill -9 took " + tookMillis + " ms");

            assertThat(promoted).isNotSameAs(killed);
            assertThat(set.master()).isSameAs(promoted);
            assertThat(readEventually(connection)).isEqualTo("v");

            killed.restart();
            set.awaitReplicasAttached(Duration.ofSeconds(30));
            assertThat(set.replicas()).contains(killed);
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    @Test
    void manualFailoverPromotesAReplicaAndCuttingReplicasIsTemporary() {
        RedisSentinelSet set = redis.get();
        set.awaitReplicasAttached(Duration.ofSeconds(30));
        assertThat(set.cutReplicas()).isEqualTo(2);
        set.awaitReplicasAttached(Duration.ofSeconds(30));

        RedisServer before = set.master();
        set.failover(Duration.ofSeconds(20));
        RedisServer after = set.awaitFailover(before, Duration.ofSeconds(30));
        assertThat(after).isNotSameAs(before);
        set.awaitReplicasAttached(Duration.ofSeconds(30));
        assertThat(set.replicas()).contains(before);
    }

    @Test
    void partitionedReplicasMissWritesUntilHealed() {
        RedisSentinelSet set = redis.get();
        set.awaitReplicasAttached(Duration.ofSeconds(30));
        RedisServer master = set.master();
        assertThat(set.partitionReplicas()).isEqualTo(2);
        TestRedis.set(master, "during-partition", "1");
        Sleeps.sleep(Duration.ofMillis(1500));
        for (RedisServer replica : set.replicas()) {
            assertThat(TestRedis.get(replica, "during-partition")).isNull();
            assertThat(TestRedis.info(replica, "replication")).contains("master_link_status:down");
        }
        set.healReplicas();
        set.awaitReplicasAttached(Duration.ofSeconds(30));
        assertThat(TestRedis.setAndWait(master, "after-heal", "1", 2)).isEqualTo(2);
        for (RedisServer replica : set.replicas()) {
            assertThat(TestRedis.get(replica, "during-partition")).isEqualTo("1");
        }
    }

    private static String readEventually(StatefulRedisConnection<String, String> connection) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try {
                return connection.sync().get("k");
            } catch (RuntimeException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Sleeps.sleep(Duration.ofMillis(100));
            }
        }
    }
}
