package dev.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MutualExclusionTests extends RedisLockTest {

    @Test
    void twoClientsAndEightThreadsNeverOverlapAndLoseNoIncrement() throws Exception {
        List<RedisLockClient> lockClients = List.of(this.clients.create(), this.clients.create());
        List<RedisCommands<String, String>> counters = List.of(this.clients.raw(), this.clients.raw());
        HoldIntervals intervals = new HoldIntervals();
        AtomicInteger increments = new AtomicInteger();
        long runUntil = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                RedisLockClient lockClient = lockClients.get(t % 2);
                RedisCommands<String, String> counter = counters.get(t % 2);
                String who = "client" + (t % 2) + "-thread" + t;
                workers.add(pool.submit(() -> {
                    RedisLock lock = lockClient.getLock("counter");
                    for (int i = 0; i < 100_000 && System.nanoTime() < runUntil; i++) {
                        try (LockLease lease = lock.acquire(Duration.ofSeconds(10))) {
                            long start = System.nanoTime();
                            String value = counter.get("counter-value");
                            int next = (value == null) ? 1 : Integer.parseInt(value) + 1;
                            counter.set("counter-value", Integer.toString(next));
                            increments.incrementAndGet();
                            intervals.record(start, System.nanoTime(), who + " token " + lease.fencingToken());
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
        assertThat(increments.get()).as("critical sections run").isGreaterThan(50);
        assertThat(counters.get(0).get("counter-value")).isEqualTo(Integer.toString(increments.get()));
        assertThat(intervals.overlaps()).isEmpty();
        assertThat(counters.get(0).exists("lock:{counter}")).isZero();
        assertThat(lockClients).allSatisfy((client) -> assertThat(client.activeLeaseCount()).isZero());
    }

    @Test
    void overlapCheckerFlagsOverlappingIntervals() {
        HoldIntervals intervals = new HoldIntervals();
        intervals.record(0, 10, "long");
        intervals.record(1, 2, "inside");
        intervals.record(20, 30, "later");
        intervals.record(25, 26, "inside later");
        assertThat(intervals.overlaps()).hasSize(2);
    }
}
