package dev.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The contract every exclusive lock kind keeps: mutual exclusion across clients, per-thread reentrancy, no release by
 * a non-owner, a lost lease is reported and refused, fencing tokens increase, and a fixed lease's end moves only while
 * it is held. Each lock kind extends this with a way to get its lock from two independent clients and to wipe its
 * Redis state.
 */
abstract class LockContractTests {

    /** The lock {@code name} as seen by the first client. */
    protected abstract RedisLock firstClientLock(String name);

    /** The lock {@code name} as seen by a second, independent client. */
    protected abstract RedisLock secondClientLock(String name);

    /** Deletes every key of the lock behind its holder's back (keeping the fencing counter). */
    protected abstract void deleteLockState(String name);

    @Test
    void holdersFromTwoClientsNeverOverlap() throws Exception {
        HoldIntervals intervals = new HoldIntervals();
        AtomicLong highestToken = new AtomicLong();
        List<String> tokenRegressions = new ArrayList<>();
        // At least 1.5 s and 40 sections, at most 15 s: a loaded machine gets more time, not a weaker check.
        long started = System.nanoTime();
        long until = started + Duration.ofMillis(1500).toNanos();
        long cap = started + Duration.ofSeconds(15).toNanos();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                RedisLock lock = (t % 2 == 0) ? firstClientLock("contract") : secondClientLock("contract");
                String who = "worker" + t;
                workers.add(pool.submit(() -> {
                    for (int i = 0; i < 10_000 && System.nanoTime() < cap
                            && (System.nanoTime() < until || intervals.size() < 40); i++) {
                        try (LockLease lease = lock.acquire(Duration.ofSeconds(10))) {
                            long start = System.nanoTime();
                            long previous = highestToken.getAndAccumulate(lease.fencingToken(), Math::max);
                            if (lease.fencingToken() <= previous) {
                                tokenRegressions.add(lease.fencingToken() + " after " + previous);
                            }
                            Thread.sleep(1);
                            intervals.record(start, System.nanoTime(), who);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get(60, TimeUnit.SECONDS);
            }
        }
        finally {
            pool.shutdownNow();
        }
        assertThat(intervals.size()).isGreaterThanOrEqualTo(40);
        assertThat(intervals.overlaps()).isEmpty();
        assertThat(tokenRegressions).isEmpty();
        assertThat(firstClientLock("contract").isLocked()).isFalse();
    }

    @Test
    void reentersToDepthThreeAndReleasesOnTheLastClose() throws Exception {
        RedisLock lock = firstClientLock("reentry");
        LockLease outer = lock.acquire(Duration.ZERO);
        LockLease middle = lock.acquire(Duration.ZERO);
        LockLease inner = lock.acquire(Duration.ZERO);
        assertThat(inner.fencingTokens()).isEqualTo(outer.fencingTokens());
        inner.close();
        middle.close();
        assertThat(secondClientLock("reentry").tryAcquire()).isEmpty();
        outer.close();
        assertThat(lock.isLocked()).isFalse();
        try (LockLease other = secondClientLock("reentry").tryAcquire().orElseThrow()) {
            assertThat(other.fencingToken()).isGreaterThan(outer.fencingToken());
        }
    }

    @Test
    void anotherThreadCannotUnlockIt() throws Exception {
        Lock lock = firstClientLock("owner-only").asLock();
        lock.lock();
        try {
            Throwable failure = CompletableFuture.runAsync(lock::unlock).handle((ignored, ex) -> ex)
                .get(10, TimeUnit.SECONDS);
            assertThat(failure).hasCauseInstanceOf(IllegalMonitorStateException.class);
            assertThat(secondClientLock("owner-only").tryAcquire()).isEmpty();
        }
        finally {
            lock.unlock();
        }
        assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::unlock);
    }

    @Test
    void lostLeaseIsReportedAndReentryIsRefused() throws Exception {
        RedisLock lock = firstClientLock("lost");
        LockLease lease = lock.acquire(Duration.ZERO);
        long token = lease.fencingToken();
        CompletableFuture<LeaseLoss> lost = new CompletableFuture<>();
        lease.addLossListener(lost::complete);
        deleteLockState("lost");
        assertThat(lost.get(5, TimeUnit.SECONDS).lockName()).contains("lost");
        assertThat(lease.isHeld()).isFalse();
        assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> lock.acquire(Duration.ZERO));
        assertThatExceptionOfType(LockLostException.class).isThrownBy(lease::close);
        try (LockLease fresh = secondClientLock("lost").acquire(Duration.ZERO)) {
            assertThat(fresh.fencingToken()).isGreaterThan(token);
        }
    }

    @Test
    void aFixedLeaseMovesItsEndWhileHeldAndNotAfterItsLoss() throws Exception {
        RedisLock lock = firstClientLock("moved");
        LockLease lease = lock.acquire(Duration.ZERO, Duration.ofMinutes(5));
        lease.expireIn(Duration.ofMinutes(10));
        assertThat(lease.remainingValidity()).isGreaterThan(Duration.ofMinutes(9));
        lease.expireIn(Duration.ofMillis(300));
        // Redis ends it too: the other client gets the lock long before the first five minutes are over.
        try (LockLease next = secondClientLock("moved").acquire(Duration.ofSeconds(30))) {
            assertThat(next.isHeld()).isTrue();
        }
        assertThat(lease.isHeld()).isFalse();
        assertThatExceptionOfType(LockLostException.class).isThrownBy(lease::close);

        LockLease again = lock.acquire(Duration.ZERO, Duration.ofMinutes(5));
        deleteLockState("moved");
        assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> again.expireIn(Duration.ofMinutes(10)));
        assertThat(again.isHeld()).isFalse();
        assertThatExceptionOfType(LockLostException.class).isThrownBy(again::close);
    }
}
