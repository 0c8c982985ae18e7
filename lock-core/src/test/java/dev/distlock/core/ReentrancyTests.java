package dev.distlock.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ReentrancyTests extends RedisLockTest {

    @Test
    void reentryToDepthThreeKeepsTheTokenAndOnlyTheLastCloseReleases(RedisLockClient client,
            RedisCommands<String, String> raw) throws Exception {
        RedisLock lock = client.getLock("reentrant");
        LockLease outer = lock.acquire(Duration.ZERO);
        LockLease middle = lock.acquire(Duration.ZERO);
        LockLease inner = client.getLock("reentrant").acquire(Duration.ZERO);
        assertThat(middle.fencingToken()).isEqualTo(outer.fencingToken());
        assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken());

        inner.close();
        middle.close();
        assertThat(raw.exists("lock:{reentrant}")).isOne();
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        outer.close();
        assertThat(raw.exists("lock:{reentrant}")).isZero();
        assertThat(lock.isHeldByCurrentThread()).isFalse();
        assertThat(client.activeLeaseCount()).isZero();
    }

    @Test
    void anotherThreadDoesNotReenterButWaits(RedisLockClient client) throws Exception {
        RedisLock lock = client.getLock("per-thread");
        try (LockLease lease = lock.acquire(Duration.ZERO)) {
            boolean acquiredElsewhere = CompletableFuture
                .supplyAsync(() -> lock.tryAcquire().map((other) -> {
                    other.close();
                    return true;
                }).orElse(false))
                .get(10, TimeUnit.SECONDS);
            assertThat(acquiredElsewhere).isFalse();
            assertThat(lease.isHeld()).isTrue();
        }
    }

    @Test
    void unlockByANonOwnerThreadFailsAndLeavesTheLock(RedisLockClient client, RedisCommands<String, String> raw)
            throws Exception {
        Lock lock = client.getLock("not-yours").asLock();
        lock.lock();
        try {
            Throwable failure = CompletableFuture.runAsync(lock::unlock)
                .handle((ignored, ex) -> ex)
                .get(10, TimeUnit.SECONDS);
            assertThat(failure).hasCauseInstanceOf(IllegalMonitorStateException.class);
            assertThat(raw.exists("lock:{not-yours}")).isOne();
        }
        finally {
            lock.unlock();
        }
        assertThat(raw.exists("lock:{not-yours}")).isZero();
    }

    @Test
    void unlockingTwiceThrowsIllegalMonitorState(RedisLockClient client) {
        Lock lock = client.getLock("twice").asLock();
        lock.lock();
        lock.unlock();
        assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::unlock)
            .withMessageContaining("twice");
    }

    @Test
    void closingALeaseTwiceIsANoOpAndALeaseCanBeClosedFromAnyThread(RedisLockClient client,
            RedisCommands<String, String> raw) throws Exception {
        LockLease lease = client.getLock("handle").acquire(Duration.ZERO);
        CompletableFuture.runAsync(lease::close).get(10, TimeUnit.SECONDS);
        lease.close();
        assertThat(lease.isHeld()).isFalse();
        assertThat(raw.exists("lock:{handle}")).isZero();
    }

    @Test
    void reentryAfterTheKeyWasDeletedFailsWithLostAndDoesNotRecreateIt(RedisLockClient client,
            RedisCommands<String, String> raw) throws Exception {
        RedisLock lock = client.getLock("deleted-at-depth-two");
        LockLease outer = lock.acquire(Duration.ZERO);
        LockLease nested = lock.acquire(Duration.ZERO);
        long token = outer.fencingToken();
        raw.del("lock:{deleted-at-depth-two}");

        assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> lock.acquire(Duration.ZERO))
            .withMessageContaining("deleted-at-depth-two")
            .satisfies((ex) -> assertThat(ex.fencingToken()).isEqualTo(token));
        assertThat(raw.exists("lock:{deleted-at-depth-two}")).isZero();
        assertThat(outer.isHeld()).isFalse();
        assertThatExceptionOfType(LockLostException.class).isThrownBy(nested::close);
        assertThatExceptionOfType(LockLostException.class).isThrownBy(outer::close);

        try (LockLease fresh = lock.acquire(Duration.ZERO)) {
            assertThat(fresh.fencingToken()).isGreaterThan(outer.fencingToken());
        }
    }

    @Test
    void releaseNeverDeletesAnotherOwnersKey(RedisLockClient client, RedisCommands<String, String> raw)
            throws Exception {
        RedisLock lock = client.getLock("taken-over");
        LockLease lease = lock.acquire(Duration.ZERO, Duration.ofSeconds(30));
        raw.set("lock:{taken-over}", "someone-else");
        assertThatExceptionOfType(LockLostException.class).isThrownBy(lease::close);
        assertThat(raw.get("lock:{taken-over}")).isEqualTo("someone-else");
    }
}
