package dev.distlock.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class LostLeaseTests extends RedisLockTest {

    /**
     * One renewal period (a third of the lease) plus room for a round trip and scheduling delays on a busy machine,
     * still under the lease: the RENEWAL_REFUSED reason, not this bound, is what tells detection from expiry.
     */
    private static final Duration DETECTION_BOUND = LockClients.TEST_WATCHDOG_LEASE.dividedBy(3)
        .plusMillis(900);

    private RedisLockClient client;

    @BeforeEach
    void setUp() {
        this.client = this.clients.create();
    }

    @Test
    void deletedLockIsReportedLostWithinOneRenewalPeriod() throws Exception {
        LockLease lease = this.client.getLock("deleted").acquire(Duration.ZERO);
        long token = lease.fencingToken();
        CompletableFuture<LeaseLoss> lost = new CompletableFuture<>();
        lease.addLossListener(lost::complete);

        long deletedAt = System.nanoTime();
        this.raw.del("lock:{deleted}");
        LeaseLoss loss = lost.get(DETECTION_BOUND.toMillis(), TimeUnit.MILLISECONDS);
        long detectedAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - deletedAt);

        assertThat(loss.reason()).isEqualTo(LeaseLoss.Reason.RENEWAL_REFUSED);
        assertThat(loss.fencingToken()).isEqualTo(token).isPositive();
        assertThat(lease.isHeld()).isFalse();
        assertThat(detectedAfterMillis).isLessThanOrEqualTo(DETECTION_BOUND.toMillis());
        assertThatExceptionOfType(LockLostException.class).isThrownBy(lease::close);
        assertThat(this.client.activeLeaseCount()).isZero();
    }

    @Test
    void aNestedLeaseClosedWhileItsLossIsBeingReportedIsToldOnce() throws Exception {
        RedisLock lock = this.client.getLock("closing-while-lost");
        LockLease outer = lock.acquire(Duration.ZERO);
        LockLease nested = lock.acquire(Duration.ZERO);
        CountDownLatch reporting = new CountDownLatch(1);
        CountDownLatch nestedClosed = new CountDownLatch(1);
        // The outer lease's listener is told first and holds the report up until the nested lease closed.
        outer.addLossListener((loss) -> {
            reporting.countDown();
            try {
                nestedClosed.await(10, TimeUnit.SECONDS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        });
        AtomicInteger nestedTold = new AtomicInteger();
        nested.addLossListener((loss) -> nestedTold.incrementAndGet());

        this.raw.del("lock:{closing-while-lost}");
        assertThat(reporting.await(10, TimeUnit.SECONDS)).as("the loss is being reported").isTrue();
        assertThatExceptionOfType(LockLostException.class).isThrownBy(nested::close);
        nestedClosed.countDown();

        assertThat(nestedTold.get()).as("told by the close that took its listener off the lost hold").isOne();
        assertThatExceptionOfType(LockLostException.class).isThrownBy(outer::close);
        assertThat(nestedTold.get()).as("and only once").isOne();
    }

    @Test
    void flushAllMakesHoldersLostAndLaterTokensAreLargerThanAllEarlierOnes() throws Exception {
        RedisLock lock = this.client.getLock("flushed");
        long highest = 0;
        for (int i = 0; i < 20; i++) {
            try (LockLease lease = lock.acquire(Duration.ZERO)) {
                assertThat(lease.fencingToken()).isGreaterThan(highest);
                highest = lease.fencingToken();
            }
        }
        LockLease held = lock.acquire(Duration.ZERO);
        highest = Math.max(highest, held.fencingToken());
        CompletableFuture<LeaseLoss> lost = new CompletableFuture<>();
        held.addLossListener(lost::complete);

        this.raw.flushall();

        assertThat(lost.get(DETECTION_BOUND.toMillis(), TimeUnit.MILLISECONDS).reason())
            .isEqualTo(LeaseLoss.Reason.RENEWAL_REFUSED);
        assertThatExceptionOfType(LockLostException.class).isThrownBy(held::close);
        try (LockLease after = lock.acquire(Duration.ZERO)) {
            assertThat(after.fencingToken()).isGreaterThan(highest);
        }
    }

    @Test
    void listenerAddedAfterTheLossIsToldImmediately() throws Exception {
        LockLease lease = this.client.getLock("late-listener").acquire(Duration.ZERO, Duration.ofMillis(300));
        Thread.sleep(900);
        CompletableFuture<LeaseLoss> lost = new CompletableFuture<>();
        lease.addLossListener(lost::complete);
        assertThat(lost.get(1, TimeUnit.SECONDS).lockName()).isEqualTo("late-listener");
    }

    @Test
    void closingANestedLeaseUnregistersItsListeners() throws Exception {
        RedisLock lock = this.client.getLock("nested-listeners");
        LockLease outer = lock.acquire(Duration.ZERO);
        java.util.List<LeaseLoss> nestedLosses = new java.util.concurrent.CopyOnWriteArrayList<>();
        LockLease nested = lock.acquire(Duration.ZERO);
        nested.addLossListener(nestedLosses::add);
        nested.close();
        CompletableFuture<LeaseLoss> outerLoss = new CompletableFuture<>();
        outer.addLossListener(outerLoss::complete);
        this.raw.del("lock:{nested-listeners}");
        outerLoss.get(DETECTION_BOUND.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(nestedLosses).isEmpty();
        assertThatExceptionOfType(LockLostException.class).isThrownBy(outer::close);
    }

    @Test
    void disabledFencingWritesNoCounterAndReportsTokenZero() throws Exception {
        RedisLockClient unfenced = this.clients.create(LockClientOptions.builder().fencing(false).build());
        try (LockLease lease = unfenced.getLock("unfenced").acquire(Duration.ZERO)) {
            assertThat(lease.fencingToken()).isZero();
            assertThat(this.raw.exists("lock:{unfenced}:fence")).isZero();
        }
    }
}
