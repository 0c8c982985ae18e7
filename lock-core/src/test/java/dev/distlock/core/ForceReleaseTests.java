package dev.distlock.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@link RedisLockClient#forceRelease}: one step on Redis that reports exactly the hold it removed and hands the lock
 * to the next queued waiter, for every kind. The waiters here have a long back-off, so only the handoff can give them
 * the lock within the bound.
 */
class ForceReleaseTests extends RedisLockTest {

    private static final Duration SLOW_BACKOFF = Duration.ofSeconds(10);

    private RedisLockClient waiterClient() {
        return this.clients.create(LockClientOptions.builder().maxBackoff(SLOW_BACKOFF).instanceId("waiter-1")
            .build());
    }

    @Test
    void forceReleaseOfAQueuedLockNamesTheHolderAndHandsItToTheQueuedWaiter() throws Exception {
        RedisLockClient holder = this.clients.create(LockClientOptions.builder().instanceId("holder-1")
            .watchdogLease(LockClients.TEST_WATCHDOG_LEASE).build());
        LockLease held = holder.getLock("stuck").acquire(Duration.ZERO);
        long heldToken = held.fencingToken();
        CompletableFuture<LockLease> waiting = waiterClient().getLock("stuck").acquireAsync(Duration.ofSeconds(30))
            .toCompletableFuture();
        await().atMost(Duration.ofSeconds(10)).until(() -> this.raw.llen("lock:{stuck}:queue") == 1);

        ForcedRelease done = this.clients.create().forceRelease("stuck");

        assertThat(done.mode()).isEqualTo(LockInfo.Mode.EXCLUSIVE);
        assertThat(done.previousOwnerInstanceId()).isEqualTo("holder-1");
        assertThat(LockInfo.instanceIdOf(done.offeredTo())).isEqualTo("waiter-1");
        try (LockLease lease = waiting.get(5, TimeUnit.SECONDS)) {
            assertThat(lease.fencingToken()).isGreaterThan(heldToken);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> !held.isHeld());
    }

    @Test
    void forceReleaseOfAWriteHoldHandsTheLockToTheQueuedWriter() throws Exception {
        RedisLockClient holder = this.clients.create(LockClientOptions.builder().instanceId("holder-1").build());
        LockLease held = holder.getReadWriteLock("doc").writeLock().acquire(Duration.ZERO, Duration.ofSeconds(60));
        CompletableFuture<LockLease> waiting = waiterClient().getReadWriteLock("doc").writeLock()
            .acquireAsync(Duration.ofSeconds(30)).toCompletableFuture();
        await().atMost(Duration.ofSeconds(10)).until(() -> this.raw.llen("lock:{doc}:write:queue") == 1);

        ForcedRelease done = this.clients.create().forceRelease("doc");

        assertThat(done.mode()).isEqualTo(LockInfo.Mode.WRITE);
        assertThat(done.previousOwnerInstanceId()).isEqualTo("holder-1");
        waiting.get(5, TimeUnit.SECONDS).close();
        assertThatExceptionOfType(LockLostException.class).as("the evicted writer").isThrownBy(held::close);
    }

    @Test
    void forceReleaseOfReadHoldsRemovesThemAllAndHandsTheLockToTheQueuedWriter() throws Exception {
        RedisLockClient readers = this.clients.create(LockClientOptions.builder().instanceId("reader-1").build());
        readers.getReadWriteLock("report").readLock().acquire(Duration.ZERO, Duration.ofSeconds(60));
        readers.getReadWriteLock("report").readLock().acquire(Duration.ZERO,
                Duration.ofSeconds(60));
        CompletableFuture<LockLease> writer = waiterClient().getReadWriteLock("report").writeLock()
            .acquireAsync(Duration.ofSeconds(30)).toCompletableFuture();
        await().atMost(Duration.ofSeconds(10)).until(() -> this.raw.llen("lock:{report}:write:queue") == 1);

        ForcedRelease done = this.clients.create().forceRelease("report");

        assertThat(done.mode()).isEqualTo(LockInfo.Mode.READ);
        assertThat(done.previousOwnerInstanceId()).isEqualTo("reader-1");
        writer.get(5, TimeUnit.SECONDS).close();
        assertThat(this.raw.exists("lock:{report}:read")).isZero();
        assertThat(this.clients.create().inspect("report").readHolds()).as("read holds left").isZero();
    }

    @Test
    void forceUnlockOfAReadWriteLockHandsItToTheQueuedWriter() throws Exception {
        LockLease held = this.clients.create().getReadWriteLock("rw").writeLock().acquire(Duration.ZERO,
                Duration.ofSeconds(60));
        CompletableFuture<LockLease> writer = waiterClient().getReadWriteLock("rw").writeLock()
            .acquireAsync(Duration.ofSeconds(30)).toCompletableFuture();
        await().atMost(Duration.ofSeconds(10)).until(() -> this.raw.llen("lock:{rw}:write:queue") == 1);

        assertThat(this.clients.create().getReadWriteLock("rw").writeLock().forceUnlock()).isTrue();

        writer.get(5, TimeUnit.SECONDS).close();
        assertThatExceptionOfType(LockLostException.class).as("the evicted writer").isThrownBy(held::close);
    }

    @Test
    void forceReleaseOfAFreeLockReportsNothing() {
        ForcedRelease done = this.clients.create().forceRelease("free");
        assertThat(done.released()).isFalse();
        assertThat(done.previousOwner()).isNull();
        assertThat(done.offeredTo()).isNull();
    }
}
