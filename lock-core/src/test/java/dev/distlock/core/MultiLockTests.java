package dev.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MultiLockTests extends RedisLockTest {

    private RedisLockClient first;

    private RedisLockClient second;

    @BeforeEach
    void setUp() {
        this.first = this.clients.create();
        this.second = this.clients.create();
    }

    @Test
    void overlappingSetsInOppositeOrderNeverDeadlock() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        AtomicInteger sections = new AtomicInteger();
        int perWorker = 25;
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                RedisLock lock = (t % 2 == 0) ? this.first.getMultiLock("a", "b")
                        : this.second.getMultiLock("b", "a");
                workers.add(pool.submit(() -> {
                    // A deadlock shows as a LockNotAcquiredException after 5 s, or as a worker that never finishes.
                    for (int i = 0; i < perWorker; i++) {
                        try (LockLease lease = lock.acquire(Duration.ofSeconds(5))) {
                            sections.incrementAndGet();
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
            pool.shutdownNow();
        }
        assertThat(sections.get()).isEqualTo(4 * perWorker);
    }

    @Test
    void partialFailureReleasesWhatWasTaken() throws Exception {
        try (LockLease b = this.second.getLock("b").acquire(Duration.ZERO)) {
            assertThat(this.first.getMultiLock("a", "b", "c").tryAcquire(Duration.ofMillis(200))).isEmpty();
            assertThat(this.raw.exists("lock:{a}", "lock:{c}")).isZero();
        }
    }

    @Test
    void oneFencingTokenPerNameAcrossClusterSlots() throws Exception {
        List<String> names = List.of("order:1", "order:2", "customer:7");
        List<Integer> slots = names.stream().map((name) -> SlotHash.getSlot("lock:{" + name + "}")).distinct()
            .toList();
        assertThat(slots).as("the names hash to different Redis Cluster slots").hasSize(3);
        try (LockLease lease = this.first.getMultiLock(names).acquire(Duration.ZERO)) {
            assertThat(lease.fencingTokens()).containsOnlyKeys(names);
            assertThat(lease.fencingTokens().values()).allMatch((token) -> token > 0);
            assertThat(lease.isHeld()).isTrue();
        }
        assertThat(this.raw.exists("lock:{order:1}", "lock:{order:2}", "lock:{customer:7}")).isZero();
    }
}
