package dev.distlock.reliability;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;

import dev.distlock.core.LockLease;
import dev.distlock.core.RedisLockClient;
import dev.distlock.testsupport.LockEvent;
import dev.distlock.testsupport.RedisClusterSet;
import dev.distlock.testsupport.RedisSentinelSet;
import dev.distlock.testsupport.RedisTopologyExtension;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * F26: a queued waiter SIGKILLed and another SIGSTOPped ahead of a live one. A handoff is an offer that the waiter
 * confirms with a renewal; neither the dead nor the frozen waiter confirms, so each offer lapses after
 * {@link #OFFER} and the lock passes on: the live waiter holds it within {@link #TARGET} of the release on every
 * topology (before offers, the frozen waiter, whose subscription stays open, held it for a whole lease of 30 s).
 * Resumed, the frozen waiter finds its offer gone and queues again: it gets the lock only after the live one released
 * it. The waiters' back-off is 4 s, so a check of their own could not hand the live one the lock in time: only the
 * releasing client passing lapsed offers on can.
 */
@DisplayName("F26 dead and frozen waiters queued ahead of a live one")
class PassedOverWaitersTests extends SingleServerFaultTest {

    static final Duration OFFER = Duration.ofSeconds(1);

    static final Duration LEASE = Duration.ofSeconds(30);

    static final Duration BACKOFF = Duration.ofSeconds(4);

    /** The target; the assertion allows a little scheduling slack on a loaded 2-core machine. */
    static final Duration TARGET = Duration.ofSeconds(3);

    static final Duration SLACK = Duration.ofMillis(500);

    /** Runs the scenario on one topology. */
    static void run(String topology, WorkerGroup workers, RedisLockClient holderClient,
            String workerUri, Function<String, Long> llen, Function<String, String> get, String... workerOptions)
            throws Exception {
        String lock = "f26-" + topology;
        String queueKey = "lock:{" + lock + "}:queue";
        LockLease held = holderClient.getLock(lock).acquire(Duration.ZERO);
        String[] options = concat(workerOptions, "backoffMs=" + BACKOFF.toMillis(), "leaseMs=" + LEASE.toMillis(),
                "offerMs=" + OFFER.toMillis());
        List<Worker> queue = workers.startAll(3, lock + "-w", workerUri, options);
        for (int i = 0; i < queue.size(); i++) {
            queue.get(i).send("acquire " + lock + " 60000 0 reentrant");
            long expected = i + 1;
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(5))
                .until(() -> llen.apply(queueKey) == expected);
        }
        Worker dead = queue.get(0);
        Worker frozen = queue.get(1);
        Worker live = queue.get(2);
        dead.kill9();
        frozen.pause();

        long releasedAt = System.nanoTime();
        held.close();
        LockEvent granted = live.await(LockEvent.Type.OK, lock, releasedAt, Duration.ofSeconds(20));
        long toLive = granted.nanos() - releasedAt;

        long resumedAt = System.nanoTime();
        frozen.resume();
        // Resumed, the frozen waiter confirms an offer that has lapsed: refused, it queues again behind nobody.
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
            .until(() -> llen.apply(queueKey) == 1);
        String holdOfLive = get.apply("lock:{" + lock + "}");
        long liveReleaseAsked = System.nanoTime();
        live.send("release " + lock);
        LockEvent released = live.await(LockEvent.Type.RELEASED, lock, liveReleaseAsked, Duration.ofSeconds(10));
        LockEvent frozenGranted = frozen.await(LockEvent.Type.OK, lock, resumedAt, Duration.ofSeconds(20));
        frozen.send("release " + lock);
        frozen.await(LockEvent.Type.RELEASED, lock, frozenGranted.nanos(), Duration.ofSeconds(10));

        Measured.report("F26", topology + ": waiters w0 (kill -9), w1 (SIGSTOP), w2 (live) queued behind a holder; "
                + "offer " + OFFER.toMillis() + " ms, waiter back-off " + BACKOFF.toMillis() + " ms, lease "
                + LEASE.toMillis() + " ms: release -> w2 holds after " + Measured.millis(releasedAt, granted.nanos())
                + " (target " + TARGET.toMillis() + " ms); w1 resumed, queued again and got the lock "
                + Measured.millis(liveReleaseAsked, frozenGranted.nanos()) + " after w2 was told to release ("
                + "w2 reported the release done " + Measured.millis(liveReleaseAsked, released.nanos())
                + " after), tokens " + granted.token() + " -> " + frozenGranted.token());
        assertThat(Duration.ofNanos(toLive)).as("release to the live waiter holding the lock")
            .isLessThanOrEqualTo(TARGET.plus(SLACK));
        assertThat(holdOfLive).as("the live waiter holds the key when the frozen one has resumed")
            .endsWith("|" + granted.token());
        // w2's RELEASED event is written once its release's reply reached w2's JVM, which can be after the handoff
        // already reached w1 (another process): the order that matters is w1's grant after w2's release began.
        assertThat(frozenGranted.nanos()).as("the resumed waiter holds the lock only after the live one released it")
            .isGreaterThan(liveReleaseAsked);
        assertThat(frozenGranted.token()).isGreaterThan(granted.token());
    }

    private static String[] concat(String[] first, String... second) {
        String[] all = new String[first.length + second.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }

    @Test
    @DisplayName("single server")
    void theLiveWaiterHoldsTheLockWithinThreeSeconds() throws Exception {
        RedisLockClient holder = this.clients.lockClient(redis.uri(),
                Clients.fastOptions().watchdogLease(LEASE).maxBackoff(BACKOFF).build());
        run("single", this.workers, holder, redis.uri(), this.raw::llen, this.raw::get);
    }

    @Nested
    @DisplayName("Sentinel")
    class Sentinel {

        @RegisterExtension
        final RedisTopologyExtension<RedisSentinelSet> sentinel = RedisTopologyExtension.sentinel(1);

        @RegisterExtension
        final Clients topologyClients = new Clients();

        private final WorkerGroup topologyWorkers = new WorkerGroup();

        @AfterEach
        void stopWorkers() {
            this.topologyWorkers.close();
        }

        @Test
        void theLiveWaiterHoldsTheLockWithinThreeSeconds() throws Exception {
            RedisSentinelSet set = this.sentinel.get();
            RedisLockClient holder = this.topologyClients.lockClient(set.sentinelUri(),
                    Clients.fastOptions().watchdogLease(LEASE).maxBackoff(BACKOFF).build());
            RedisCommands<String, String> raw = this.topologyClients.raw(set.master().uri());
            run("sentinel", this.topologyWorkers, holder, set.sentinelUri(), raw::llen, raw::get);
        }
    }

    @Nested
    @DisplayName("Cluster")
    class Cluster {

        @RegisterExtension
        final RedisTopologyExtension<RedisClusterSet> cluster = RedisTopologyExtension.cluster();

        @RegisterExtension
        final Clients topologyClients = new Clients();

        private final WorkerGroup topologyWorkers = new WorkerGroup();

        @AfterEach
        void stopWorkers() {
            this.topologyWorkers.close();
        }

        @Test
        void theLiveWaiterHoldsTheLockWithinThreeSeconds() throws Exception {
            RedisClusterSet set = this.cluster.get();
            RedisLockClient holder = this.topologyClients.clusterLockClient(set.seedUris(),
                    Clients.fastOptions().watchdogLease(LEASE).maxBackoff(BACKOFF).build());
            RedisAdvancedClusterCommands<String, String> raw = this.topologyClients.clusterClient(set.seedUris())
                .connect()
                .sync();
            run("cluster", this.topologyWorkers, holder, String.join(",", set.seedUris()), raw::llen,
                    raw::get, "cluster=true");
        }
    }
}
