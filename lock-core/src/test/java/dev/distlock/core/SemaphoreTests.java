package dev.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The semaphore on a real Redis: the count as Redis sees it, arrival order, leases, the count changed at run time. */
class SemaphoreTests extends RedisLockTest {

    @RegisterExtension
    final KeptThreads threads = new KeptThreads();

    private static final Duration LONG_WAIT = Duration.ofSeconds(30);

    private RedisLockClient client;

    @BeforeEach
    void setUp() {
        this.client = this.clients.create();
    }

    @Test
    void neverMoreThanThePermitCountAreHeldAsRedisSeesIt() throws Exception {
        int permits = 3;
        List<RedisLockClient> processes = List.of(this.client, this.clients.create(), this.clients.create());
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger mostInside = new AtomicInteger();
        AtomicInteger mostOnRedis = new AtomicInteger();
        AtomicInteger grants = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(9);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int i = 0; i < 9; i++) {
                RedisSemaphore semaphore = processes.get(i % 3).getSemaphore("pool", permits);
                workers.add(threads.submit(() -> {
                    for (int round = 0; round < 8; round++) {
                        try (LockLease permit = semaphore.acquire(LONG_WAIT)) {
                            mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            mostOnRedis.accumulateAndGet(livePermitsOnRedis("pool"), Math::max);
                            grants.incrementAndGet();
                            Thread.sleep(5);
                            inside.decrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get(120, TimeUnit.SECONDS);
            }
        }
        finally {
            threads.shutdownNow();
        }
        assertThat(grants).hasValue(72);
        assertThat(mostInside.get()).isBetween(1, permits);
        assertThat(mostOnRedis.get()).isBetween(1, permits);
        assertThat(livePermitsOnRedis("pool")).isZero();
    }

    @Test
    void queuedWaitersAreGrantedPermitsInArrivalOrder() throws Exception {
        RedisSemaphore semaphore = this.client.getSemaphore("ordered", 1);
        LockLease held = semaphore.acquire(Duration.ZERO);
        List<Integer> granted = new CopyOnWriteArrayList<>();
        List<CompletableFuture<Void>> waiters = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int index = i;
            RedisSemaphore own = this.clients.create().getSemaphore("ordered", 1);
            waiters.add(CompletableFuture.runAsync(() -> {
                try (LockLease permit = own.acquire(LONG_WAIT)) {
                    granted.add(index);
                }
                catch (InterruptedException ex) {
                    throw new IllegalStateException(ex);
                }
            }));
            awaitQueued("ordered", i + 1);
        }
        held.close();
        CompletableFuture.allOf(waiters.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        assertThat(granted).containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void aSingleAttemptDoesNotTakeAPermitPastALiveQueuedWaiter() {
        RedisSemaphore semaphore = this.client.getSemaphore("no-barging", 1);
        semaphore.setPermits(1);
        long serverNow = serverMillis();
        this.raw.zadd("lock:{no-barging}:permits:waiters", serverNow * 1000.0, "someone-else");
        this.raw.zadd("lock:{no-barging}:permits:waiters:deadlines", serverNow + 60_000.0, "someone-else");

        assertThat(semaphore.tryAcquire()).isEmpty();
        assertThat(semaphore.inspect().waiters()).containsExactly("someone-else");

        this.raw.zadd("lock:{no-barging}:permits:waiters:deadlines", serverNow - 1.0, "someone-else");
        Optional<LockLease> permit = semaphore.tryAcquire();
        assertThat(permit).isPresent();
        permit.get().close();
        assertThat(this.raw.zcard("lock:{no-barging}:permits:waiters")).isZero();
    }

    @Test
    void aHolderThatStopsRenewingLosesItsPermitAfterItsLeaseAndAWaiterGetsIt() throws Exception {
        RedisLockClient crashing = this.clients.create();
        LockLease abandoned = crashing.getSemaphore("crash", 1).acquire(Duration.ZERO);
        String crashedOwner = this.client.inspectSemaphore("crash").holders().get(0).owner();
        // Closing the client stops its watchdog and returns nothing: as far as Redis can tell, the holder died.
        crashing.close();

        long start = System.nanoTime();
        try (LockLease permit = this.client.getSemaphore("crash", 1).acquire(LONG_WAIT)) {
            long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(permit.fencingToken()).isGreaterThan(abandoned.fencingToken());
            assertThat(this.client.inspectSemaphore("crash").holders()).extracting(SemaphoreInfo.Holder::owner)
                .doesNotContain(crashedOwner);
            assertThat(waitedMillis).isLessThan(LockClients.TEST_WATCHDOG_LEASE.toMillis() + 10_000);
        }
    }

    @Test
    void thePermitCountCanBeRaisedAndLoweredAtRunTime() throws Exception {
        RedisSemaphore semaphore = this.client.getSemaphore("resized", 1);
        LockLease first = semaphore.acquire(Duration.ZERO);
        assertThat(semaphore.tryAcquire()).isEmpty();

        RedisSemaphore other = this.clients.create().getSemaphore("resized", 1);
        CompletableFuture<LockLease> waiter = this.threads.run("waiter", () -> other.acquire(LONG_WAIT));
        awaitQueued("resized", 1);
        assertThat(semaphore.setPermits(2)).isEqualTo(1);
        LockLease second = waiter.get(30, TimeUnit.SECONDS);
        assertThat(semaphore.inspect().holders()).hasSize(2);

        assertThat(semaphore.setPermits(1)).isEqualTo(2);
        assertThat(first.isHeld()).isTrue();
        assertThat(second.isHeld()).isTrue();
        assertThat(semaphore.availablePermits()).isZero();
        first.close();
        assertThat(semaphore.tryAcquire()).as("one held, one permit").isEmpty();
        second.close();
        Optional<LockLease> third = semaphore.tryAcquire();
        assertThat(third).isPresent();
        third.get().close();
        assertThat(this.client.getSemaphore("resized", 7).inspect().permits()).as("a later declaration").isEqualTo(1);
    }

    @Test
    void aPermitRemovedOnRedisIsReportedLost() throws Exception {
        LockLease permit = this.client.getSemaphore("removed", 2).acquire(Duration.ZERO);
        CompletableFuture<LeaseLoss> lost = new CompletableFuture<>();
        permit.addLossListener(lost::complete);

        this.raw.del("lock:{removed}:permits");

        LeaseLoss loss = lost.get(10, TimeUnit.SECONDS);
        assertThat(loss.reason()).isEqualTo(LeaseLoss.Reason.RENEWAL_REFUSED);
        assertThat(loss.fencingToken()).isEqualTo(permit.fencingToken());
        assertThat(permit.isHeld()).isFalse();
        assertThatExceptionOfType(LockLostException.class).isThrownBy(permit::close);
        assertThat(this.client.activeLeaseCount()).isZero();
    }

    @Test
    void everyPermitGetsALargerFencingTokenThanTheOnesBefore() throws Exception {
        RedisSemaphore semaphore = this.client.getSemaphore("tokens", 3);
        long highest = 0;
        for (int i = 0; i < 10; i++) {
            LockLease a = semaphore.acquire(Duration.ZERO);
            LockLease b = semaphore.acquire(Duration.ZERO);
            assertThat(a.fencingToken()).isGreaterThan(highest);
            assertThat(b.fencingToken()).isGreaterThan(a.fencingToken());
            highest = b.fencingToken();
            a.close();
            b.close();
        }
    }

    @Test
    void inspectionShowsThePermitsHeldAndByWhom() throws Exception {
        RedisSemaphore semaphore = this.client.getSemaphore("inspected", 2);
        try (LockLease permit = semaphore.acquire(Duration.ZERO)) {
            SemaphoreInfo info = this.client.inspectSemaphore("inspected");
            assertThat(info.permits()).isEqualTo(2);
            assertThat(info.availablePermits()).isEqualTo(1);
            assertThat(info.holders()).singleElement().satisfies((holder) -> {
                assertThat(holder.instanceId()).isEqualTo(this.client.instanceId());
                assertThat(holder.fencingToken()).isEqualTo(permit.fencingToken());
                assertThat(holder.remainingLease()).isPositive()
                    .isLessThanOrEqualTo(LockClients.TEST_WATCHDOG_LEASE);
            });
            assertThat(this.client.heldLeases()).singleElement()
                .satisfies((lease) -> assertThat(lease.kind()).isEqualTo("semaphore"));
        }
        assertThat(this.client.inspectSemaphore("inspected").holders()).isEmpty();
        assertThat(this.client.inspectSemaphore("never-used").permits()).isZero();
    }

    @Test
    void aPermitCountBelowOneIsRefusedWithTheFix() {
        assertThatIllegalArgumentException().isThrownBy(() -> this.client.getSemaphore("bad", 0))
            .withMessageContaining("needs at least 1 permit, was 0");
        RedisSemaphore semaphore = this.client.getSemaphore("bad", 1);
        assertThatIllegalArgumentException().isThrownBy(() -> semaphore.setPermits(-2))
            .withMessageContaining("was -2");
        assertThatIllegalArgumentException().isThrownBy(() -> this.client.getSemaphore(" ", 1));
    }

    @Test
    void aWaiterThatGivesUpLeavesTheQueueAndIsToldWhy() throws Exception {
        RedisSemaphore semaphore = this.client.getSemaphore("given-up", 1);
        try (LockLease held = semaphore.acquire(Duration.ZERO)) {
            assertThatExceptionOfType(LockNotAcquiredException.class)
                .isThrownBy(() -> semaphore.acquire(Duration.ofMillis(300)))
                .withMessageContaining("No permit of semaphore 'given-up'");
            assertThat(semaphore.inspect().waiters()).isEmpty();
        }
    }

    /** Live permits in the permits sorted set, as the scripts count them: members whose lease has not ended. */
    private int livePermitsOnRedis(String name) {
        return Math.toIntExact(this.raw.zcount("lock:{" + name + "}:permits",
                io.lettuce.core.Range.create((double) serverMillis() + 1, Double.POSITIVE_INFINITY)));
    }

    private void awaitQueued(String name, int waiters) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (this.raw.zcard("lock:{" + name + "}:permits:waiters") < waiters) {
            assertThat(System.nanoTime() - deadline).as("%s waiters queued on '%s'", waiters, name).isNegative();
            Thread.sleep(10);
        }
    }
}
