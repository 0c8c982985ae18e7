package dev.distlock.reliability;

import java.time.Duration;

import dev.distlock.core.LockLease;
import dev.distlock.core.RedisLock;
import dev.distlock.core.RedisLockClient;
import dev.distlock.testsupport.RedisSentinelSet;
import dev.distlock.testsupport.RedisServer;
import dev.distlock.testsupport.RedisTopologyExtension;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * F25 and S5: fencing tokens never repeat when the counter goes back. Replication is asynchronous, so a failover to
 * a replica that missed the last increments, or a restart that loads an older snapshot, leaves a counter below tokens
 * already issued. Every token is floored at the server's clock in microseconds, so the first token on the new master
 * is still greater than every earlier one (as far as the masters' clocks agree, which NTP keeps to milliseconds).
 */
@DisplayName("F25 fencing tokens across a failover to a lagging replica and an older snapshot")
class FencingAcrossFailoverTests extends SingleServerFaultTest {

    /** Grants made while the replica cannot follow: the counter on the replica misses all of them. */
    private static final int LAGGED_GRANTS = 5;

    private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(30);

    @Test
    @DisplayName("restart that loads an older RDB snapshot")
    void aRestartFromAnOlderSnapshotNeverRepeatsAToken() throws Exception {
        RedisLockClient client = this.clients.lockClient(redis.uri());
        RedisLock lock = client.getLock("f25-rdb");
        grants(lock, 3);
        this.raw.save();
        String saved = this.raw.get("lock:{f25-rdb}:fence");
        long maxOld = grants(lock, LAGGED_GRANTS);
        redis.server().kill9();
        redis.server().restart();
        RedisCommands<String, String> afterRestart = this.clients.raw(redis.uri());
        String reloaded = afterRestart.get("lock:{f25-rdb}:fence");

        long first = firstGrantAfter(lock);

        Measured.report("F25", "restart from an RDB saved before " + LAGGED_GRANTS + " more grants: counter went back "
                + "to " + reloaded + " (highest token issued " + maxOld + "); first token after the restart " + first);
        assertThat(reloaded).as("the restart loaded the older counter").isEqualTo(saved);
        assertThat(Long.parseLong(reloaded)).isLessThan(maxOld);
        assertThat(first).as("first token after the restart").isGreaterThan(maxOld);
    }

    @Nested
    @DisplayName("Sentinel failover to a lagging replica")
    class Failover {

        @RegisterExtension
        final RedisTopologyExtension<RedisSentinelSet> sentinel = RedisTopologyExtension.sentinel(1);

        @RegisterExtension
        final Clients topologyClients = new Clients();

        @Test
        void theFirstTokenOnThePromotedReplicaIsGreaterThanEveryEarlierOne() throws Exception {
            RedisSentinelSet set = this.sentinel.get();
            RedisLockClient client = this.topologyClients.lockClient(set.sentinelUri(),
                    Clients.fastOptions().operationTimeout(Duration.ofSeconds(1)).build());
            RedisLock lock = client.getLock("f25-failover");
            grants(lock, 3);
            set.awaitReplicasAttached(Duration.ofSeconds(10));
            RedisServer replica = set.replicas().get(0);
            RedisCommands<String, String> onReplica = this.topologyClients.raw(replica.uri());
            Thread.sleep(200);
            String replicated = onReplica.get("lock:{f25-failover}:fence");
            // The replication cut: the replica is locked out and stops receiving writes; the master keeps granting.
            set.partitionReplicas();
            long maxOld = grants(lock, LAGGED_GRANTS);
            String lagging = onReplica.get("lock:{f25-failover}:fence");

            RedisServer killed = set.killMaster();
            long killedAt = System.nanoTime();
            RedisServer promoted = set.awaitFailover(killed, FAILOVER_TIMEOUT);
            long first = firstGrantAfter(lock);
            long firstAt = System.nanoTime();

            Measured.report("F25", "Sentinel: replication cut, " + LAGGED_GRANTS + " grants on the master (highest "
                    + "token " + maxOld + "), replica's counter " + lagging + "; master killed, replica " + promoted.port()
                    + " promoted; first token there " + first + ", " + Measured.millis(killedAt, firstAt)
                    + " after the kill");
            assertThat(lagging).as("the replica's counter lags").isEqualTo(replicated);
            assertThat(Long.parseLong(lagging)).isLessThan(maxOld);
            assertThat(first).as("first token on the promoted replica").isGreaterThan(maxOld);
        }
    }

    /** Takes and releases the lock {@code count} times; returns the highest token. */
    private static long grants(RedisLock lock, int count) {
        long highest = 0;
        for (int i = 0; i < count; i++) {
            try (LockLease lease = lock.acquire(Duration.ofSeconds(5))) {
                assertThat(lease.fencingToken()).isGreaterThan(highest);
                highest = lease.fencingToken();
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(ex);
            }
        }
        return highest;
    }

    /** The first grant once the server answers again (the client reconnects or follows the new master). */
    private static long firstGrantAfter(RedisLock lock) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        RuntimeException last = null;
        while (System.nanoTime() - deadline < 0) {
            try (LockLease lease = lock.acquire(Duration.ofSeconds(2))) {
                return lease.fencingToken();
            }
            catch (RuntimeException ex) {
                last = ex;
                Thread.sleep(100);
            }
        }
        throw new AssertionError("no grant within 30 s after the fault", last);
    }
}
