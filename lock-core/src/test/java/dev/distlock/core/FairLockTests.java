package dev.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class FairLockTests extends RedisLockTest {

    private static final String QUEUE = "lock:{fair}:queue";

    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void tearDown() throws Exception {
        this.pool.shutdownNow();
        assertThat(this.pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void waitersFromSeveralClientsAcquireInArrivalOrder() throws Exception {
        List<RedisLockClient> lockClients = List.of(this.clients.create(), this.clients.create(),
                this.clients.create());
        LockLease held = lockClients.get(0).getFairLock("fair").acquire(Duration.ZERO);
        List<Integer> order = new CopyOnWriteArrayList<>();
        List<Long> handoffNanos = new CopyOnWriteArrayList<>();
        long[] releasedAt = new long[1];
        List<Future<?>> waiters = new ArrayList<>();
        int count = 10;
        for (int i = 0; i < count; i++) {
            int arrival = i;
            RedisLock lock = lockClients.get(i % 3).getFairLock("fair");
            waiters.add(this.pool.submit(() -> {
                try (LockLease lease = lock.acquire(Duration.ofSeconds(30))) {
                    handoffNanos.add(System.nanoTime() - releasedAt[0]);
                    order.add(arrival);
                    Thread.sleep(20);
                    releasedAt[0] = System.nanoTime();
                }
                return null;
            }));
            long queued = i + 1;
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
                .until(() -> this.raw.llen(QUEUE) == queued);
        }
        releasedAt[0] = System.nanoTime();
        held.close();
        for (Future<?> waiter : waiters) {
            waiter.get(30, TimeUnit.SECONDS);
        }
        assertThat(order).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        List<Long> millis = handoffNanos.stream().map(TimeUnit.NANOSECONDS::toMillis).sorted().toList();
        System.out.println("Fair lock handoff latency (ms, sorted): " + millis);
        assertThat(millis.get(millis.size() - 1)).isLessThan(500);
        await().atMost(Duration.ofSeconds(10)).until(() -> this.raw.keys("lock:{fair}*").size() == 1);
    }

    @Test
    void waitersWhoseClientDiedAreSkippedWithinTheWaiterTimeout() throws Exception {
        RedisLockClient holder = this.clients.create();
        RedisLockClient live = this.clients.create();
        RedisLockClient doomed = this.clients.create();
        LockLease held = holder.getFairLock("fair").acquire(Duration.ZERO);

        List<Future<Long>> futures = new ArrayList<>();
        futures.add(submitWaiter(live));
        awaitQueued(1);
        Future<Long> dead1 = submitWaiter(doomed);
        awaitQueued(2);
        Future<Long> dead2 = submitWaiter(doomed);
        awaitQueued(3);
        futures.add(submitWaiter(live));
        awaitQueued(4);

        doomed.close();
        long releasedAt = System.nanoTime();
        held.close();
        long lastAcquired = 0;
        for (Future<Long> future : futures) {
            lastAcquired = Math.max(lastAcquired, future.get(30, TimeUnit.SECONDS));
        }
        long stalledMillis = TimeUnit.NANOSECONDS.toMillis(lastAcquired - releasedAt);
        System.out.println("Fair queue stalled by two dead waiters for " + stalledMillis + " ms");
        long bound = 3 * live.options().maxBackoff().toMillis() + live.options().maxBackoff().toMillis() + 1000;
        assertThat(stalledMillis).isLessThan(bound);
        assertThat(dead1).failsWithin(Duration.ofSeconds(10));
        assertThat(dead2).failsWithin(Duration.ofSeconds(10));
    }

    @Test
    void timedOutWaiterLeavesTheQueue() throws Exception {
        RedisLockClient client = this.clients.create();
        RedisLockClient other = this.clients.create();
        try (LockLease held = client.getFairLock("fair").acquire(Duration.ZERO)) {
            assertThat(other.getFairLock("fair").tryAcquire(Duration.ofMillis(300))).isEmpty();
            await().atMost(Duration.ofSeconds(2)).until(() -> this.raw.llen(QUEUE) == 0);
        }
    }

    private Future<Long> submitWaiter(RedisLockClient client) {
        return this.pool.submit(() -> {
            try (LockLease lease = client.getFairLock("fair").acquire(Duration.ofSeconds(30))) {
                return System.nanoTime();
            }
        });
    }

    private void awaitQueued(long length) {
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
            .until(() -> this.raw.llen(QUEUE) == length);
    }
}
