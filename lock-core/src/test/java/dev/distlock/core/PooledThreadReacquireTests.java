package dev.distlock.core;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What a thread's earlier hold means for its next acquisition of the same name (pooled threads live on):
 * a fixed lease that ran out never blocks it, closed or not; a lost lease blocks reentry only while it is open.
 */
class PooledThreadReacquireTests extends RedisLockTest {

    private RedisLockClient client;

    private ExecutorService pooledThread;

    @BeforeEach
    void setUp() {
        this.client = this.clients.create();
        this.pooledThread = Executors.newSingleThreadExecutor();
    }

    @AfterEach
    void tearDown() throws Exception {
        this.pooledThread.shutdownNow();
    }

    @Test
    void aFixedLeaseLeftToExpireDoesNotBlockTheThreadsNextAcquisition() throws Exception {
        RedisLock lock = this.client.getLock("expiring");
        // A task takes a short fixed lease and lets it run out without closing it, a legitimate use of a fixed lease.
        LockLease first = onPooledThread(() -> lock.acquire(Duration.ZERO, Duration.ofMillis(300)));
        long firstToken = first.fencingToken();
        await().atMost(Duration.ofSeconds(10)).until(() -> !first.isHeld() && this.raw.exists("lock:{expiring}") == 0);

        // A later task on the same pooled thread acquires the free lock.
        LockLease second = onPooledThread(() -> lock.acquire(Duration.ZERO));
        assertThat(second.isHeld()).isTrue();
        assertThat(second.fencingToken()).isGreaterThan(firstToken);
        assertThat(onPooledThread(lock::isHeldByCurrentThread)).isTrue();

        // The expired lease still reports its loss when closed, and leaves the new hold alone.
        assertThatExceptionOfType(LockLostException.class).isThrownBy(first::close);
        assertThat(second.isHeld()).isTrue();
        assertThat(this.raw.exists("lock:{expiring}")).isOne();
        onPooledThread(() -> {
            second.close();
            return null;
        });
        assertThat(this.raw.exists("lock:{expiring}")).isZero();
        assertThat(this.client.activeLeaseCount()).isZero();
    }

    @Test
    void anExpiredFixedLeaseCaughtBeforeTheWatchdogNoticedIsReplacedToo() throws Exception {
        // A watchdog lease of 30 s ticks every 2.5 s: the thread comes back long before the watchdog sees the expiry.
        RedisLockClient slowTicks = this.clients.create(LockClientOptions.builder()
            .watchdogLease(Duration.ofSeconds(30)).build());
        RedisLock lock = slowTicks.getLock("expiring");
        LockLease first = onPooledThread(() -> lock.acquire(Duration.ZERO, Duration.ofMillis(100)));
        await().atMost(Duration.ofSeconds(10)).until(() -> this.raw.exists("lock:{expiring}") == 0);
        try (LockLease second = onPooledThread(() -> lock.acquire(Duration.ZERO))) {
            assertThat(second.isHeld()).isTrue();
            assertThat(first.isHeld()).isFalse();
        }
        assertThatExceptionOfType(LockLostException.class).isThrownBy(first::close);
    }

    @Test
    void aLostWatchdogLeaseBlocksReentryUntilItIsClosed() throws Exception {
        RedisLock lock = this.client.getLock("lost");
        LockLease first = onPooledThread(() -> lock.acquire(Duration.ZERO));
        this.raw.del("lock:{lost}");
        await().atMost(Duration.ofSeconds(10)).until(() -> !first.isHeld());

        // Still open: the thread is inside a section whose lock was lost, so re-entering fails (no resurrection).
        assertThatExceptionOfType(ExecutionException.class)
            .isThrownBy(() -> onPooledThread(() -> lock.acquire(Duration.ZERO)))
            .withCauseInstanceOf(LockLostException.class);
        assertThatExceptionOfType(LockLostException.class).isThrownBy(first::close);

        // Closed: the next task on that thread starts afresh.
        try (LockLease again = onPooledThread(() -> lock.acquire(Duration.ZERO))) {
            assertThat(again.isHeld()).isTrue();
        }
        assertThat(this.raw.exists("lock:{lost}")).isZero();
    }

    private <T> T onPooledThread(java.util.concurrent.Callable<T> task) throws Exception {
        return this.pooledThread.submit(task).get(20, TimeUnit.SECONDS);
    }
}
