package dev.distlock.test.memory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.distlock.core.LeaseLoss;
import dev.distlock.core.LockClientOptions;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.LockOperationException;
import dev.distlock.core.LockTemplate;
import dev.distlock.core.LostLeasePolicy;
import dev.distlock.core.ReadWriteRedisLock;
import dev.distlock.core.RedisLock;
import dev.distlock.core.reactive.ReactiveLockTemplate;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/** What the in-memory client adds to the lock contract: its test controls, and the semantics the contract skips. */
@SuppressWarnings("try") // leases held open only to keep a lock busy
class InMemoryLockClientTests {

    private final InMemoryLockClient locks = new InMemoryLockClient();

    @Test
    void busyLockWaitsItsWaitTimeAndNamesTheOtherInstance() throws Exception {
        try (LockLease busy = this.locks.holdAsInstance("orders:42", "orders@host-2")) {
            long start = System.nanoTime();
            assertThatExceptionOfType(LockNotAcquiredException.class)
                .isThrownBy(() -> this.locks.getLock("orders:42").acquire(Duration.ofMillis(200)))
                .satisfies((ex) -> assertThat(ex.holderInstanceId()).isEqualTo("orders@host-2"))
                .withMessageContaining("instance orders@host-2");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
            assertThat(busy.isHeld()).isTrue();
        }
        try (LockLease mine = this.locks.getLock("orders:42").acquire(Duration.ZERO)) {
            assertThat(mine.isHeld()).isTrue();
        }
    }

    @Test
    void waiterGetsTheLockWhenTheHolderReleasesWithinTheWait() throws Exception {
        LockLease busy = this.locks.holdAsInstance("report", "other");
        CompletableFuture<LockLease> waiter = this.locks.getLock("report").acquireAsync(Duration.ofSeconds(30))
            .toCompletableFuture();
        assertThat(waiter).isNotDone();
        busy.close();
        try (LockLease lease = waiter.get(10, TimeUnit.SECONDS)) {
            assertThat(lease.fencingToken()).isGreaterThan(busy.fencingToken());
        }
    }

    @Test
    void lostNextLeaseFailsTheTemplateCallAfterTheWorkRan() {
        LockTemplate template = new LockTemplate(this.locks);
        this.locks.loseNextLease("nightly-job");
        AtomicBoolean ran = new AtomicBoolean();
        assertThatExceptionOfType(LockLostException.class)
            .isThrownBy(() -> template.execute("nightly-job", (lease) -> ran.getAndSet(true)));
        assertThat(ran).isTrue();
        assertThat(this.locks.getLock("nightly-job").isLocked()).isFalse();
    }

    @Test
    void lostNextLeaseInterruptsTheWorkUnderInterruptPolicy() {
        LockTemplate template = new LockTemplate(this.locks, Duration.ZERO, null, LostLeasePolicy.INTERRUPT);
        this.locks.loseNextLease("job");
        assertThatExceptionOfType(LockLostException.class)
            .isThrownBy(() -> template.execute("job", (lease) -> Thread.currentThread().isInterrupted()));
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void loseLeaseTellsListenersOnceAndRefusesReentryUntilClosed() throws Exception {
        RedisLock lock = this.locks.getLock("lost");
        LockLease lease = lock.acquire(Duration.ZERO);
        CompletableFuture<LeaseLoss> told = new CompletableFuture<>();
        lease.addLossListener(told::complete);
        assertThat(this.locks.loseLease("lost")).isTrue();
        assertThat(told).isCompletedWithValue(new LeaseLoss("lost", lease.fencingToken(),
                LeaseLoss.Reason.RENEWAL_REFUSED));
        assertThat(lease.isHeld()).isFalse();
        assertThat(lease.remainingValidity()).isZero();
        assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> lock.acquire(Duration.ZERO));
        assertThatExceptionOfType(LockLostException.class).isThrownBy(lease::close);
        try (LockLease fresh = lock.acquire(Duration.ZERO)) {
            assertThat(fresh.fencingToken()).isGreaterThan(lease.fencingToken());
        }
        assertThat(this.locks.loseLease("lost")).isFalse();
    }

    @Test
    void slowAcquireDelaysTheGrant() throws Exception {
        this.locks.slowAcquire("slow", Duration.ofMillis(150));
        long start = System.nanoTime();
        try (LockLease lease = this.locks.getLock("slow").acquire(Duration.ZERO)) {
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(150));
            assertThat(lease.isHeld()).isTrue();
        }
        this.locks.slowAcquire("slow", Duration.ZERO);
        assertThat(this.locks.getLock("slow").tryAcquire()).hasValueSatisfying(LockLease::close);
    }

    @Test
    void slowAcquireBeyondTheOperationTimeoutFailsLikeAnUnansweredRedis() {
        InMemoryLockClient client = new InMemoryLockClient(LockClientOptions.builder()
            .operationTimeout(Duration.ofMillis(100))
            .build());
        client.slowAcquire("unanswered", Duration.ofSeconds(5));
        assertThatExceptionOfType(LockOperationException.class)
            .isThrownBy(() -> client.getLock("unanswered").acquire(Duration.ofSeconds(1)))
            .withMessageContaining("did not answer within 100 ms");
        assertThat(client.getLock("unanswered").isLocked()).isFalse();
    }

    @Test
    void fixedLeaseRunsOutAndTellsItsListener() throws Exception {
        LockLease lease = this.locks.getLock("fixed").acquire(Duration.ZERO, Duration.ofMillis(100));
        CompletableFuture<LeaseLoss> told = new CompletableFuture<>();
        lease.addLossListener(told::complete);
        assertThat(told.get(10, TimeUnit.SECONDS).reason()).isEqualTo(LeaseLoss.Reason.EXPIRED);
        assertThat(lease.isHeld()).isFalse();
        try (LockLease other = this.locks.otherInstance("b").getLock("fixed").acquire(Duration.ZERO)) {
            assertThat(other.fencingToken()).isGreaterThan(lease.fencingToken());
        }
        assertThatExceptionOfType(LockLostException.class).isThrownBy(lease::close);
    }

    @Test
    void readersShareAndAWaitingWriterKeepsNewReadersOut() throws Exception {
        ReadWriteRedisLock mine = this.locks.getReadWriteLock("catalog");
        ReadWriteRedisLock theirs = this.locks.otherInstance("b").getReadWriteLock("catalog");
        LockLease read = mine.readLock().acquire(Duration.ZERO);
        CompletableFuture<LockLease> writer = theirs.writeLock().acquireAsync(Duration.ofSeconds(30))
            .toCompletableFuture();
        assertThat(theirs.readLock().isLocked()).isTrue();
        // bounded: the writer is queued once the async attempt has run; a fresh reader is then refused
        for (int i = 0; i < 1000 && theirs.readLock().tryAcquire().map(this::closed).orElse(false); i++) {
            Thread.sleep(10);
        }
        assertThat(theirs.readLock().tryAcquire()).isEmpty();
        read.close();
        try (LockLease write = writer.get(10, TimeUnit.SECONDS)) {
            assertThat(write.fencingToken()).isGreaterThan(read.fencingToken());
        }
    }

    @Test
    void writerMayDowngradeButAReaderMayNotUpgrade() throws Exception {
        ReadWriteRedisLock lock = this.locks.getReadWriteLock("doc");
        try (LockLease write = lock.writeLock().acquire(Duration.ZERO);
                LockLease read = lock.readLock().acquire(Duration.ZERO)) {
            assertThat(read.isHeld()).isTrue();
        }
        try (LockLease read = lock.readLock().acquire(Duration.ZERO)) {
            assertThatIllegalStateException().isThrownBy(() -> lock.writeLock().acquire(Duration.ZERO))
                .withMessageContaining("upgrading would deadlock");
        }
    }

    @Test
    void asynchronousAcquisitionsAreNotReentrant() throws Exception {
        RedisLock lock = this.locks.getLock("async");
        try (LockLease first = lock.acquireAsync(Duration.ZERO).toCompletableFuture().get(10, TimeUnit.SECONDS)) {
            assertThat(first.isHeld()).isTrue();
            assertThat(lock.acquireAsync(Duration.ZERO).toCompletableFuture())
                .failsWithin(Duration.ofSeconds(10))
                .withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .withCauseInstanceOf(LockNotAcquiredException.class);
        }
    }

    @Test
    void cancelledAsynchronousWaitLeavesNothingLocked() throws Exception {
        LockLease busy = this.locks.holdAsInstance("cancel", "other");
        CompletableFuture<LockLease> waiter = this.locks.getLock("cancel").acquireAsync(Duration.ofSeconds(30))
            .toCompletableFuture();
        waiter.cancel(false);
        busy.close();
        assertThat(this.locks.getLock("cancel").isLocked()).isFalse();
        assertThat(this.locks.otherInstance("c").getLock("cancel").tryAcquire()).hasValueSatisfying(LockLease::close);
    }

    @Test
    void reactiveTemplateRunsOnTheInMemoryClientAndReleasesOnCompletion() {
        ReactiveLockTemplate reactive = new ReactiveLockTemplate(new LockTemplate(this.locks));
        Long token = reactive.execute("reactive", (lease) -> Mono.just(lease.fencingToken()))
            .block(Duration.ofSeconds(10));
        assertThat(token).isPositive();
        assertThat(this.locks.getLock("reactive").isLocked()).isFalse();
    }

    @Test
    void fencingOffGivesTokenZero() throws Exception {
        InMemoryLockClient unfenced = new InMemoryLockClient(LockClientOptions.builder().fencing(false).build());
        try (LockLease lease = unfenced.getLock("plain").acquire(Duration.ZERO)) {
            assertThat(lease.fencingToken()).isZero();
        }
    }

    @Test
    void resetFreesBusyLocksAndClearsTheControls() throws Exception {
        LockLease busy = this.locks.holdAsInstance("shared", "other");
        this.locks.loseNextLease("shared");
        this.locks.reset();
        assertThat(busy.isHeld()).isFalse();
        try (LockLease lease = this.locks.getLock("shared").acquire(Duration.ZERO)) {
            assertThat(lease.isHeld()).isTrue();
        }
    }

    @Test
    void badNamesAndDurationsAreRefusedNamingTheFix() {
        assertThatIllegalArgumentException().isThrownBy(() -> this.locks.getLock(" "))
            .withMessageContaining("must not be blank");
        assertThatIllegalArgumentException().isThrownBy(() -> this.locks.getLock("x".repeat(10_000)))
            .withMessageContaining("hash long keys");
        assertThatIllegalArgumentException().isThrownBy(() -> this.locks.getLock("x").acquire(Duration.ofSeconds(-1)))
            .withMessageContaining("use zero for a single attempt");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> this.locks.getLock("x").acquire(Duration.ZERO, Duration.ofMillis(1)))
            .withMessageContaining("watchdog-renewed");
        assertThatIllegalArgumentException().isThrownBy(() -> this.locks.getMultiLock(java.util.List.of()))
            .withMessageContaining("at least one lock name");
    }

    private boolean closed(LockLease lease) {
        lease.close();
        return true;
    }
}
