package dev.distlock.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.distlock.testsupport.RedisClusterSet;
import dev.distlock.testsupport.RedisServer;
import dev.distlock.testsupport.RedisServerOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Every lock kind on a real 3-master Redis Cluster: no CROSSSLOT, NOSCRIPT per node handled, wake-ups delivered. */
class ClusterLockTests {

    private static RedisClusterSet cluster;

    private RedisClusterClient clusterClient;

    private RedisLockClient first;

    private RedisLockClient second;

    @BeforeAll
    static void startCluster() {
        cluster = RedisClusterSet.start(3, 0, RedisServerOptions.defaults());
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @BeforeEach
    void setUp() {
        this.clusterClient = RedisClusterClient.create(cluster.seedUris().stream().map(RedisURI::create).toList());
        LockClientOptions options = LockClientOptions.builder().watchdogLease(LockClients.TEST_WATCHDOG_LEASE).build();
        this.first = RedisLockClient.create(this.clusterClient, options);
        this.second = RedisLockClient.create(this.clusterClient, options);
    }

    @AfterEach
    void tearDown() {
        this.first.close();
        this.second.close();
        this.clusterClient.shutdown();
    }

    @Test
    void multiLockSpansSlotsOnDifferentMasters() throws Exception {
        List<String> names = List.of("order:1", "order:2", "order:3", "customer:9");
        long masters = names.stream().map((name) -> cluster.masterOfKey("lock:{" + name + "}")).distinct().count();
        assertThat(masters).as("the names live on more than one master").isGreaterThan(1);
        try (LockLease lease = this.first.getMultiLock(names).acquire(Duration.ZERO)) {
            assertThat(lease.fencingTokens()).hasSize(4);
            assertThat(this.second.getMultiLock("order:3", "other").tryAcquire()).isEmpty();
        }
        assertThat(this.second.getMultiLock("order:3", "other").tryAcquire()).hasValueSatisfying(LockLease::close);
    }

    @Test
    void everyLockKindRunsItsMultiKeyScriptsInOneSlot() throws Exception {
        try (LockLease fair = this.first.getFairLock("fair").acquire(Duration.ZERO);
                LockLease read = this.first.getReadWriteLock("rw").readLock().acquire(Duration.ZERO);
                LockLease plain = this.first.getLock("plain").acquire(Duration.ZERO)) {
            assertThat(this.second.getFairLock("fair").tryAcquire(Duration.ofMillis(100))).isEmpty();
            assertThat(this.second.getReadWriteLock("rw").writeLock().tryAcquire(Duration.ofMillis(100))).isEmpty();
            assertThat(plain.isHeld() && fair.isHeld() && read.isHeld()).isTrue();
        }
    }

    @Test
    void aGhostHoldIsRemovedOnTheMasterOfItsSlot() throws Exception {
        // The unminted hold of an abandoned plain take, replayed after its abandon, and its owner's tombstone: the
        // script that removes it is told the tombstone as a declared key of the lock's slot.
        String ghost = "instance:ghostclientid:1";
        try (StatefulRedisClusterConnection<String, String> raw = this.clusterClient.connect()) {
            raw.sync().set("lock:{cluster-ghost}", ghost + "|", io.lettuce.core.SetArgs.Builder.px(60_000));
            raw.sync().set("lock:{cluster-ghost}:abandoned:" + ghost, "1", io.lettuce.core.SetArgs.Builder.px(60_000));

            try (LockLease lease = this.first.getLock("cluster-ghost").tryAcquire().orElseThrow()) {
                assertThat(raw.sync().get("lock:{cluster-ghost}")).doesNotStartWith(ghost);
            }
        }
    }

    @Test
    void waiterIsWokenAcrossTheClusterAfterRelease() throws Exception {
        LockLease held = this.first.getLock("handoff").acquire(Duration.ZERO);
        CompletableFuture<Long> acquiredAt = CompletableFuture.supplyAsync(() -> {
            try (LockLease lease = this.second.getLock("handoff").acquire(Duration.ofSeconds(10))) {
                return System.nanoTime();
            }
            catch (InterruptedException ex) {
                throw new IllegalStateException(ex);
            }
        });
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5))
            .until(() -> this.second.waitingLockCount() > 0);
        Thread.sleep(200);
        long releasedAt = System.nanoTime();
        held.close();
        long millis = TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(10, TimeUnit.SECONDS) - releasedAt);
        System.out.println("Cluster wake-up latency after release: " + millis + " ms");
        assertThat(millis).isLessThan(500);
    }

    @Test
    void aWaitingReaderIsWokenByTheWritersReleaseOnItsShard() throws Exception {
        // A back-off of 10 s: only the broadcast on the lock's shard channel wakes the reader in time.
        RedisLockClient reader = RedisLockClient.create(this.clusterClient, LockClientOptions.builder()
            .watchdogLease(LockClients.TEST_WATCHDOG_LEASE).maxBackoff(Duration.ofSeconds(10)).build());
        try {
            LockLease write = this.first.getReadWriteLock("shard-rw").writeLock().acquire(Duration.ZERO,
                    Duration.ofSeconds(60));
            CompletableFuture<LockLease> read = reader.getReadWriteLock("shard-rw").readLock()
                .acquireAsync(Duration.ofSeconds(30)).toCompletableFuture();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> reader.waitingLockCount() > 0 && shardChannels("lock:{shard-rw}:released") == 1);
            long releasedAt = System.nanoTime();
            write.close();
            try (LockLease lease = read.get(20, TimeUnit.SECONDS)) {
                assertThat(Duration.ofNanos(System.nanoTime() - releasedAt)).as("writer's release to the read grant")
                    .isLessThan(Duration.ofSeconds(3));
            }
        }
        finally {
            reader.close();
        }
    }

    @Test
    void aQueuedWaiterWhoseClientDiedIsSkippedAtOnce() throws Exception {
        // Offers of 5 s and a back-off of 10 s: only a release that skips the dead waiter in the same script call
        // hands the live one the lock in under 2 s.
        LockClientOptions options = LockClientOptions.builder().watchdogLease(Duration.ofSeconds(30))
            .handoffOffer(Duration.ofSeconds(5)).maxBackoff(Duration.ofSeconds(10)).build();
        String name = "dead-waiter";
        RedisClusterClient deadClusterClient = RedisClusterClient.create(cluster.seedUris().stream()
            .map(RedisURI::create).toList());
        RedisLockClient dead = RedisLockClient.create(deadClusterClient, options);
        RedisLockClient live = RedisLockClient.create(this.clusterClient, options);
        try (StatefulRedisClusterConnection<String, String> raw = this.clusterClient.connect()) {
            LockLease held = this.first.getLock(name).acquire(Duration.ZERO, Duration.ofSeconds(60));
            long heldToken = held.fencingToken();
            CompletableFuture<LockLease> deadWaiter = dead.getLock(name).acquireAsync(Duration.ofSeconds(30))
                .toCompletableFuture();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> raw.sync().llen("lock:{" + name + "}:queue") == 1);
            CompletableFuture<LockLease> liveWaiter = live.getLock(name).acquireAsync(Duration.ofSeconds(30))
                .toCompletableFuture();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> raw.sync().llen("lock:{" + name + "}:queue") == 2);

            // The dead waiter's process dies: its connections close, its queue entry stays.
            deadClusterClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> wakeChannels(name) == 1);

            long releasedAt = System.nanoTime();
            held.close();
            try (LockLease lease = liveWaiter.get(20, TimeUnit.SECONDS)) {
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - releasedAt);
                System.out.println("Cluster release to the live waiter behind a dead one: " + millis + " ms");
                assertThat(lease.fencingToken()).isGreaterThan(heldToken);
                assertThat(Duration.ofMillis(millis)).as("release to the live waiter's grant (offers last 5 s)")
                    .isLessThan(Duration.ofSeconds(2));
            }
            deadWaiter.handle((lease, ex) -> null).get(40, TimeUnit.SECONDS);
        }
        finally {
            live.close();
            dead.close();
        }
    }

    /** Shard channels matching a pattern subscribed on the master of the pattern's hash tag now. */
    private static long shardChannels(String pattern) {
        RedisClient client = RedisClient.create(RedisURI.create(cluster.masterOfKey(pattern).uri()));
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return connection.sync().pubsubShardChannels(pattern).size();
        }
        finally {
            client.shutdown();
        }
    }

    /** Wake channels of a lock name subscribed on any node now, classic or sharded. */
    private static long wakeChannels(String name) {
        String pattern = "lock:{" + name + "}:h:*";
        long count = 0;
        for (RedisServer node : cluster.nodes()) {
            RedisClient client = RedisClient.create(RedisURI.create(node.uri()));
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                count += connection.sync().pubsubChannels(pattern).size();
                count += connection.sync().pubsubShardChannels(pattern).size();
            }
            finally {
                client.shutdown();
            }
        }
        return count;
    }

    @Test
    void scriptCacheFlushedOnEveryNodeCausesNoError() throws Exception {
        for (RedisServer node : cluster.nodes()) {
            RedisClient client = RedisClient.create(RedisURI.create(node.uri()));
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                connection.sync().scriptFlush();
            }
            finally {
                client.shutdown();
            }
        }
        for (String name : List.of("a", "b", "c", "d", "e", "f")) {
            try (LockLease lease = this.first.getLock(name).acquire(Duration.ZERO)) {
                assertThat(SlotHash.getSlot("lock:{" + name + "}")).isBetween(0, SlotHash.SLOT_COUNT - 1);
            }
        }
    }
}
