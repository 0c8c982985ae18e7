package dev.distlock.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.RedisLock;
import dev.distlock.core.LockLease;
import dev.distlock.core.ReadWriteRedisLock;
import dev.distlock.core.RedisLockClient;
import dev.distlock.testsupport.History;
import dev.distlock.testsupport.HistoryChecks;
import dev.distlock.testsupport.LockEvent;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** F12: read/write lock; writers exclude everyone, readers share, and a killed reader JVM's share is freed. */
@DisplayName("F12 read/write lock, reader JVM killed")
class ReadWriteLockFaultTests extends SingleServerFaultTest {

    @Test
    void aKilledReadersShareIsFreedWithinItsLease() throws Exception {
        RedisLockClient client = this.clients.lockClient(redis.uri());
        RedisLockClient writerClient = this.clients.lockClient(redis.uri());
        Worker reader = this.workers.start("f12-reader", redis.uri());
        long sent = System.nanoTime();
        reader.send("acquire f12 0 0 read");
        assertThat(reader.await(LockEvent.Type.OK, "f12", sent, Duration.ofSeconds(10)).info()).contains("kind=read");

        LockLease localRead = client.getReadWriteLock("f12").readLock().acquire(Duration.ZERO);
        assertThat(localRead.isHeld()).as("readers share").isTrue();
        CompletableFuture<Long> writerAt = new CompletableFuture<>();
        Thread writer = new Thread(() -> {
            try (LockLease write = writerClient.getReadWriteLock("f12").writeLock().acquire(Duration.ofSeconds(15))) {
                writerAt.complete(System.nanoTime());
            }
            catch (Throwable ex) {
                writerAt.completeExceptionally(ex);
            }
        });
        writer.start();
        Thread.sleep(300);
        assertThat(writerAt).as("writer waits for the readers").isNotDone();
        localRead.close();
        Thread.sleep(Clients.LEASE.toMillis() / 2);
        long killedAt = System.nanoTime();
        reader.kill9();
        long acquired = writerAt.get(10, TimeUnit.SECONDS);
        writer.join(5_000);
        Measured.report("F12", "writer acquired " + Measured.millis(killedAt, acquired)
                + " after the last reader's JVM was killed (lease " + Clients.LEASE.toMillis() + " ms)");
        assertThat(Duration.ofNanos(acquired - killedAt)).isLessThanOrEqualTo(Clients.LEASE.plusMillis(800));
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(client.activeLeaseCount() + writerClient.activeLeaseCount()).isZero();
            assertThat(Quiesce.leftoverLockKeys(this.raw)).isEmpty();
        });
    }

    @Test
    void writersExcludeEveryoneWhileReadersShare() throws Exception {
        RedisLockClient first = this.clients.lockClient(redis.uri());
        RedisLockClient second = this.clients.lockClient(redis.uri());
        History history = new History();
        Duration run = Soak.duration(Duration.ofSeconds(4), Duration.ofMinutes(2));
        long end = System.nanoTime() + run.toNanos();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            boolean writes = t < 2;
            ReadWriteRedisLock rw = ((t % 2 == 0) ? first : second).getReadWriteLock("f12-load");
            RedisLock lock = writes ? rw.writeLock() : rw.readLock();
            String label = writes ? "W" : "R";
            Thread thread = new Thread(() -> {
                while (System.nanoTime() - end < 0) {
                    try {
                        Optional<LockLease> lease = lock.tryAcquire(Duration.ofSeconds(5));
                        if (lease.isEmpty()) {
                            continue;
                        }
                        history.add(LockEvent.now("f12", LockEvent.Type.OK, label, lease.get().fencingToken(), ""));
                        TimeUnit.MICROSECONDS.sleep(ThreadLocalRandom.current().nextInt(200, 3_000));
                        long at = System.nanoTime();
                        boolean held = lease.get().isHeld();
                        history.add(new LockEvent(at, "f12", Thread.currentThread().getName(), LockEvent.Type.END,
                                label, lease.get().fencingToken(), "held=" + held));
                        lease.get().close();
                        if (writes) {
                            Thread.sleep(5);
                        }
                    }
                    catch (InterruptedException ex) {
                        return;
                    }
                }
            }, "f12-" + label + t);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join(run.toMillis() + 20_000);
        }
        List<HistoryChecks.Section> sections = HistoryChecks.sections(history);
        List<HistoryChecks.Section> writes = sections.stream().filter((s) -> s.lock().equals("W")).toList();
        List<String> violations = new ArrayList<>();
        for (HistoryChecks.Section write : writes) {
            for (HistoryChecks.Section other : sections) {
                if (other != write && other.start() <= write.end() && write.start() <= other.end()) {
                    violations.add(write + " overlaps " + other.lock() + " " + other);
                }
            }
        }
        List<HistoryChecks.Section> reads = new ArrayList<>(sections.stream().filter((s) -> s.lock().equals("R"))
            .toList());
        reads.sort(Comparator.comparingLong(HistoryChecks.Section::start));
        int maxConcurrentReaders = 0;
        for (HistoryChecks.Section read : reads) {
            int concurrent = (int) reads.stream().filter((r) -> r.start() <= read.start() && read.start() <= r.end())
                .count();
            maxConcurrentReaders = Math.max(maxConcurrentReaders, concurrent);
        }
        Measured.report("F12", writes.size() + " write and " + reads.size() + " read sections in " + run.toSeconds()
                + " s; write overlaps=" + violations.size() + "; most readers at once=" + maxConcurrentReaders);
        assertThat(violations).as("a write section overlapped another section").isEmpty();
        assertThat(writes).as("writers were not starved").hasSizeGreaterThan(5);
        assertThat(maxConcurrentReaders).as("readers share").isGreaterThanOrEqualTo(2);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(first.activeLeaseCount() + second.activeLeaseCount()).isZero();
            assertThat(Quiesce.leftoverLockKeys(this.raw)).isEmpty();
        });
    }
}
