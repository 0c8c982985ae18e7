package dev.distlock.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ReentrancyTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    private LockClients clients;

    private RedisLockClient client;

    private RedisCommands<String, String> raw;

    @BeforeEach
    void setUp() {
        redis.flushAll();
        this.clients = new LockClients(redis.uri());
        this.client = this.clients.create();
        this.raw = this.clients.raw();
    }

    @AfterEach
    void tearDown() throws Exception {
        this.clients.close();
    }

    @Test
    void reentryToDepthThreeKeepsTheTokenAndOnlyTheLastCloseReleases() throws Exception {
        DistributedLock lock = this.client.getLock("reentrant");
        LockLease outer = lock.acquire(Duration.ZERO);
        LockLease middle = lock.acquire(Duration.ZERO);
        LockLease inner = this.client.getLock("reentrant").acquire(Duration.ZERO);
        assertThat(middle.fencingToken()).isEqualTo(outer.fencingToken());
        assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken());

        inner.close();
        middle.close();
        assertThat(this.raw.exists("lock:{reentrant}")).isOne();
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        outer.close();
        assertThat(this.raw.exists("lock:{reentrant}")).isZero();
        assertThat(lock.isHeldByCurrentThread()).isFalse();
        assertThat(this.client.activeLeaseCount()).isZero();
    }

    @Test
    void anotherThreadDoesNotReenterButWaits() throws Exception {
        DistributedLock lock = this.client.getLock("per-thread");
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
    void unlockByANonOwnerThreadFailsAndLeavesTheLock() throws Exception {
        Lock lock = this.client.getLock("not-yours").asLock();
        lock.lock();
        try {
            Throwable failure = CompletableFuture.runAsync(lock::unlock)
                .handle((ignored, ex) -> ex)
                .get(10, TimeUnit.SECONDS);
            assertThat(failure).hasCauseInstanceOf(IllegalMonitorStateException.class);
            assertThat(this.raw.exists("lock:{not-yours}")).isOne();
        }
        finally {
            lock.unlock();
        }
        assertThat(this.raw.exists("lock:{not-yours}")).isZero();
    }

    @Test
    void unlockingTwiceThrowsIllegalMonitorState() {
        Lock lock = this.client.getLock("twice").asLock();
        lock.lock();
        lock.unlock();
        assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::unlock)
            .withMessageContaining("twice");
    }

    @Test
    void closingALeaseTwiceIsANoOpAndALeaseCanBeClosedFromAnyThread() throws Exception {
        LockLease lease = this.client.getLock("handle").acquire(Duration.ZERO);
        CompletableFuture.runAsync(lease::close).get(10, TimeUnit.SECONDS);
        lease.close();
        assertThat(lease.isHeld()).isFalse();
        assertThat(this.raw.exists("lock:{handle}")).isZero();
    }

    @Test
    void reentryAfterTheKeyWasDeletedFailsWithLostAndDoesNotRecreateIt() throws Exception {
        DistributedLock lock = this.client.getLock("deleted-at-depth-two");
        LockLease outer = lock.acquire(Duration.ZERO);
        LockLease nested = lock.acquire(Duration.ZERO);
        this.raw.del("lock:{deleted-at-depth-two}");

        assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> lock.acquire(Duration.ZERO))
            .withMessageContaining("deleted-at-depth-two")
            .satisfies((ex) -> assertThat(ex.fencingToken()).isEqualTo(outer.fencingToken()));
        assertThat(this.raw.exists("lock:{deleted-at-depth-two}")).isZero();
        assertThat(outer.isHeld()).isFalse();
        assertThatExceptionOfType(LockLostException.class).isThrownBy(nested::close);
        assertThatExceptionOfType(LockLostException.class).isThrownBy(outer::close);

        try (LockLease fresh = lock.acquire(Duration.ZERO)) {
            assertThat(fresh.fencingToken()).isGreaterThan(outer.fencingToken());
        }
    }

    @Test
    void releaseNeverDeletesAnotherOwnersKey() throws Exception {
        DistributedLock lock = this.client.getLock("taken-over");
        LockLease lease = lock.acquire(Duration.ZERO, Duration.ofSeconds(30));
        this.raw.set("lock:{taken-over}", "someone-else");
        assertThatExceptionOfType(LockLostException.class).isThrownBy(lease::close);
        assertThat(this.raw.get("lock:{taken-over}")).isEqualTo("someone-else");
    }
}
