package dev.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

class WaitingTests extends RedisLockTest {

    /** Generous bound for "promptly" that stays stable on a loaded 2-core machine. */
    private static final long PROMPT_MILLIS = 500;

    /**
     * Allowance for scheduling delays on a loaded machine, added to bounds that the back-off already makes long: the
     * tests still fail when a waiter is not woken within the back-off (a 10 s wait would end them).
     */
    private static final long LOAD_SLACK_MILLIS = 1500;

    /** Back-off of the waiter in the wake-up test: a missed wake-up costs seconds, far above its bound. */
    private static final Duration SLOW_BACKOFF = Duration.ofSeconds(10);

    private RedisLockClient holder;

    private RedisLockClient waiter;

    private final ExecutorService pool = Executors.newCachedThreadPool();

    @BeforeEach
    void setUp() {
        this.holder = this.clients.create();
        this.waiter = this.clients.create();
    }

    @AfterEach
    void tearDown() throws Exception {
        this.pool.shutdownNow();
        assertThat(this.pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void waiterInAnotherClientWakesPromptlyAfterRelease() throws Exception {
        // Only the wake-up message can hand over within the bound: the waiter's back-off is 10 s.
        RedisLockClient slowRetries = this.clients.create(LockClientOptions.builder()
            .watchdogLease(LockClients.TEST_WATCHDOG_LEASE).maxBackoff(SLOW_BACKOFF).build());
        List<Long> latencies = new ArrayList<>();
        for (int round = 0; round < 5; round++) {
            // A fixed 30 s lease: the waiter cannot retry at the holder's expiry either.
            LockLease held = this.holder.getLock("handoff").acquire(Duration.ZERO, Duration.ofSeconds(30));
            Future<Long> acquiredAt = this.pool.submit(() -> {
                try (LockLease lease = slowRetries.getLock("handoff").acquire(Duration.ofSeconds(30))) {
                    return System.nanoTime();
                }
            });
            awaitWaiting(slowRetries);
            Thread.sleep(100);
            long releasedAt = System.nanoTime();
            held.close();
            latencies.add(TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(30, TimeUnit.SECONDS) - releasedAt));
        }
        Collections.sort(latencies);
        System.out.println("Wake-up latency after release (ms, sorted): " + latencies);
        assertThat(latencies.get(latencies.size() - 1)).isLessThan(PROMPT_MILLIS + LOAD_SLACK_MILLIS);
    }

    @Test
    void releaseWithoutAWakeUpMessageStillHandsOverWithinTheBackoffBound() throws Exception {
        this.holder.getLock("silent").acquire(Duration.ZERO, Duration.ofSeconds(30));
        Future<Long> acquiredAt = this.pool.submit(() -> {
            try (LockLease lease = this.waiter.getLock("silent").acquire(Duration.ofSeconds(10))) {
                return System.nanoTime();
            }
        });
        awaitWaiting(this.waiter);
        Thread.sleep(100);
        long deletedAt = System.nanoTime();
        this.raw.del("lock:{silent}");
        long millis = TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(10, TimeUnit.SECONDS) - deletedAt);
        assertThat(millis).isLessThan(this.waiter.options().maxBackoff().toMillis() + LOAD_SLACK_MILLIS);
    }

    @Test
    void killedPubSubConnectionCostsAtMostTheBackoffBound() throws Exception {
        LockLease held = this.holder.getLock("pubsub-killed").acquire(Duration.ZERO);
        Future<Long> acquiredAt = this.pool.submit(() -> {
            try (LockLease lease = this.waiter.getLock("pubsub-killed").acquire(Duration.ofSeconds(10))) {
                return System.nanoTime();
            }
        });
        awaitWaiting(this.waiter);
        Thread.sleep(100);
        this.raw.clientKill(io.lettuce.core.KillArgs.Builder.typePubsub());
        long releasedAt = System.nanoTime();
        held.close();
        long millis = TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(10, TimeUnit.SECONDS) - releasedAt);
        assertThat(millis).isLessThan(this.waiter.options().maxBackoff().toMillis() + LOAD_SLACK_MILLIS);
    }

    @Test
    void waiterTakesOverAnExpiredLeaseNearItsExpiry() throws Exception {
        this.holder.getLock("expiring").acquire(Duration.ZERO, Duration.ofMillis(700));
        long started = System.nanoTime();
        try (LockLease lease = this.waiter.getLock("expiring").acquire(Duration.ofSeconds(10))) {
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertThat(millis).isBetween(600L, 700L + LOAD_SLACK_MILLIS);
        }
    }

    @Test
    void waitTimeZeroIsExactlyOneAttempt() throws Exception {
        this.holder.getLock("single-attempt").acquire(Duration.ZERO, Duration.ofSeconds(30));
        long before = scriptCalls();
        long started = System.nanoTime();
        Optional<LockLease> lease = this.waiter.getLock("single-attempt").tryAcquire(Duration.ZERO);
        assertThat(lease).isEmpty();
        // The call count proves a single attempt; the time only that nothing waited for a back-off.
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(LOAD_SLACK_MILLIS);
        assertThat(scriptCalls() - before).isOne();
        assertThat(this.waiter.waitingLockCount()).isZero();
    }

    @Test
    void acquireThatTimesOutThrowsNamingTheLockAndTheWait() throws Exception {
        this.holder.getLock("busy").acquire(Duration.ZERO);
        long started = System.nanoTime();
        assertThatExceptionOfType(LockNotAcquiredException.class)
            .isThrownBy(() -> this.waiter.getLock("busy").acquire(Duration.ofMillis(300)))
            .withMessageContaining("'busy'")
            .withMessageContaining("300ms");
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertThat(millis).isBetween(290L, 300L + 1500L);
        await().atMost(Duration.ofSeconds(2)).until(() -> this.waiter.waitingLockCount() == 0);
    }

    @Test
    void interruptWhileWaitingThrowsAndLeavesNoGrantBehind() throws Exception {
        LockLease held = this.holder.getLock("interrupted").acquire(Duration.ZERO);
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread waiting = new Thread(() -> {
            try {
                this.waiter.getLock("interrupted").acquire(Duration.ofSeconds(30));
                outcome.complete(null);
            }
            catch (Throwable ex) {
                outcome.complete(ex);
            }
        });
        waiting.start();
        awaitWaiting(this.waiter);
        waiting.interrupt();
        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        waiting.join(5000);
        held.close();
        Thread.sleep(300);
        assertThat(this.raw.exists("lock:{interrupted}")).as("no orphan grant for the interrupted waiter").isZero();
        await().atMost(Duration.ofSeconds(2)).until(() -> this.waiter.waitingLockCount() == 0);
        assertThat(this.waiter.activeLeaseCount()).isZero();
    }

    @Test
    void manyLocalWaitersCostAboutOneRedisCallPerBackoffStep() throws Exception {
        // A fixed lease: no watchdog renewals in the script-call count.
        LockLease held = this.holder.getLock("crowded").acquire(Duration.ZERO, Duration.ofSeconds(30));
        int waiters = 20;
        List<Future<Long>> tokens = new ArrayList<>();
        long before = scriptCalls();
        for (int i = 0; i < waiters; i++) {
            tokens.add(this.pool.submit(() -> {
                try (LockLease lease = this.waiter.getLock("crowded").acquire(Duration.ofSeconds(30))) {
                    return lease.fencingToken();
                }
            }));
            if (i == 0) {
                // The others arrive once the first is queued, so its client listens on the name: each of them then
                // queues with its first call. (Arriving together, several could try before anyone subscribed.)
                await().atMost(Duration.ofSeconds(10)).until(() -> this.raw.llen("lock:{crowded}:queue") == 1);
            }
        }
        Thread.sleep(3000);
        long duringWait = scriptCalls() - before;
        held.close();
        for (Future<Long> token : tokens) {
            assertThat(token.get(30, TimeUnit.SECONDS)).isPositive();
        }
        // Each waiter queues with one call on arrival (the first tries once more, before its client subscribed).
        // After that the head of the queue checks at most every half back-off and the waiters behind it
        // quadratically less often (sum of 1/(k+1)^2 < 1 for all of them together).
        long headChecks = 3000 / (this.waiter.options().maxBackoff().toMillis() / 2);
        assertThat(duringWait).isLessThanOrEqualTo(waiters + 1 + 2 * headChecks);
    }

    private void awaitWaiting(RedisLockClient client) {
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10))
            .until(() -> client.waitingLockCount() > 0);
    }

    private long scriptCalls() {
        Matcher matcher = Pattern.compile("cmdstat_(?:evalsha|eval):calls=(\\d+)")
            .matcher(this.raw.info("commandstats"));
        long calls = 0;
        while (matcher.find()) {
            calls += Long.parseLong(matcher.group(1));
        }
        return calls;
    }
}
