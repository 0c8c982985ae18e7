package dev.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class ReadWriteLockTests extends RedisLockTest {

    private RedisLockClient first;

    private RedisLockClient second;

    private final ExecutorService pool = Executors.newCachedThreadPool();

    @BeforeEach
    void setUp() {
        this.first = this.clients.create();
        this.second = this.clients.create();
    }

    @AfterEach
    void tearDown() throws Exception {
        this.pool.shutdownNow();
        assertThat(this.pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void readersShareAndWritersExcludeEveryone() throws Exception {
        record Section(long start, long end, boolean write) {
        }
        ConcurrentLinkedQueue<Section> sections = new ConcurrentLinkedQueue<>();
        long until = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            boolean writer = t < 2;
            RedisLockClient client = (t % 2 == 0) ? this.first : this.second;
            workers.add(this.pool.submit(() -> {
                ReadWriteRedisLock lock = client.getReadWriteLock("rw");
                RedisLock side = writer ? lock.writeLock() : lock.readLock();
                for (int i = 0; i < 10_000 && System.nanoTime() < until; i++) {
                    try (LockLease lease = side.acquire(Duration.ofSeconds(10))) {
                        long start = System.nanoTime();
                        Thread.sleep(writer ? 2 : 5);
                        sections.add(new Section(start, System.nanoTime(), writer));
                    }
                }
                return null;
            }));
        }
        for (Future<?> worker : workers) {
            worker.get(60, TimeUnit.SECONDS);
        }
        List<Section> all = new ArrayList<>(sections);
        List<Section> writes = all.stream().filter(Section::write).toList();
        assertThat(writes).isNotEmpty();
        for (Section write : writes) {
            assertThat(all).filteredOn((other) -> other != write && other.start() < write.end()
                    && write.start() < other.end()).as("sections overlapping write %s", write).isEmpty();
        }
        boolean readersOverlapped = all.stream().filter((s) -> !s.write()).anyMatch((a) -> all.stream()
            .anyMatch((b) -> b != a && !b.write() && b.start() < a.end() && a.start() < b.end()));
        assertThat(readersOverlapped).as("readers shared the lock at least once").isTrue();
    }

    @Test
    void deadReadersShareIsFreedWithinItsLease() throws Exception {
        RedisLockClient doomed = this.clients.create();
        doomed.getReadWriteLock("rw").readLock().acquire(Duration.ZERO, Duration.ofMillis(800));
        try (LockLease otherReader = this.first.getReadWriteLock("rw").readLock().acquire(Duration.ZERO)) {
            doomed.close();
            long started = System.nanoTime();
            otherReader.close();
            try (LockLease write = this.second.getReadWriteLock("rw").writeLock().acquire(Duration.ofSeconds(5))) {
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                assertThat(millis).isLessThan(800 + 1200);
            }
        }
    }

    @Test
    void writerMayDowngradeToARead() throws Exception {
        ReadWriteRedisLock lock = this.first.getReadWriteLock("rw");
        LockLease write = lock.writeLock().acquire(Duration.ZERO);
        LockLease read = lock.readLock().acquire(Duration.ZERO);
        write.close();
        assertThat(this.second.getReadWriteLock("rw").readLock().tryAcquire()).hasValueSatisfying(LockLease::close);
        assertThat(this.second.getReadWriteLock("rw").writeLock().tryAcquire()).isEmpty();
        read.close();
        assertThat(this.second.getReadWriteLock("rw").writeLock().tryAcquire()).hasValueSatisfying(LockLease::close);
    }

    @Test
    void upgradeFromReadToWriteFailsClearly() throws Exception {
        ReadWriteRedisLock lock = this.first.getReadWriteLock("rw");
        try (LockLease read = lock.readLock().acquire(Duration.ZERO)) {
            assertThatIllegalStateException().isThrownBy(() -> lock.writeLock().acquire(Duration.ofSeconds(5)))
                .withMessageContaining("upgrading would deadlock");
        }
    }

    @Test
    void writerIsNotStarvedByAContinuousStreamOfReaders() throws Exception {
        long until = System.nanoTime() + Duration.ofSeconds(4).toNanos();
        CountDownLatch readersRunning = new CountDownLatch(4);
        for (int t = 0; t < 4; t++) {
            RedisLockClient client = (t % 2 == 0) ? this.first : this.second;
            this.pool.submit(() -> {
                RedisLock read = client.getReadWriteLock("rw").readLock();
                readersRunning.countDown();
                for (int i = 0; i < 10_000 && System.nanoTime() < until; i++) {
                    // Overlapping reads: there is never a moment without a reader unless writers get preference.
                    try (LockLease lease = read.acquire(Duration.ofSeconds(10))) {
                        Thread.sleep(30);
                    }
                }
                return null;
            });
        }
        assertThat(readersRunning.await(5, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(200);
        long started = System.nanoTime();
        try (LockLease write = this.clients.create().getReadWriteLock("rw").writeLock()
            .acquire(Duration.ofSeconds(3))) {
            System.out.println("Writer among 4 continuous readers acquired after "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started) + " ms");
        }
    }

    @Test
    void releasingTheWriteLockWakesEveryWaitingReader() throws Exception {
        LockLease write = this.first.getReadWriteLock("rw").writeLock().acquire(Duration.ZERO);
        List<Future<Long>> readers = new ArrayList<>();
        CountDownLatch allIn = new CountDownLatch(3);
        for (int i = 0; i < 3; i++) {
            RedisLockClient client = this.clients.create();
            readers.add(this.pool.submit(() -> {
                try (LockLease read = client.getReadWriteLock("rw").readLock().acquire(Duration.ofSeconds(10))) {
                    long at = System.nanoTime();
                    allIn.countDown();
                    assertThat(allIn.await(5, TimeUnit.SECONDS)).as("readers hold together").isTrue();
                    return at;
                }
            }));
        }
        Thread.sleep(300);
        long released = System.nanoTime();
        write.close();
        for (Future<Long> reader : readers) {
            assertThat(TimeUnit.NANOSECONDS.toMillis(reader.get(10, TimeUnit.SECONDS) - released)).isLessThan(500);
        }
    }

    @Test
    void aQueuedWriterThatGivesUpWakesTheReadersItKeptOut() throws Exception {
        // Readers that were refused because a writer queued sleep up to a back-off of 10 s unless woken.
        RedisLockClient reader = this.clients.create(LockClientOptions.builder().maxBackoff(Duration.ofSeconds(10))
            .build());
        try (LockLease held = this.first.getReadWriteLock("gives-up").readLock().acquire(Duration.ZERO,
                Duration.ofSeconds(60))) {
            java.util.concurrent.CompletableFuture<LockLease> writer = this.second.getReadWriteLock("gives-up")
                .writeLock().acquireAsync(Duration.ofMillis(800)).toCompletableFuture();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> this.raw.llen("lock:{gives-up}:write:queue") == 1);
            long started = System.nanoTime();
            Future<Long> read = this.pool.submit(() -> {
                try (LockLease lease = reader.getReadWriteLock("gives-up").readLock().acquire(Duration.ofSeconds(20))) {
                    return System.nanoTime();
                }
            });
            assertThat(writer).failsWithin(Duration.ofSeconds(10));
            long readAt = read.get(20, TimeUnit.SECONDS);
            assertThat(Duration.ofNanos(readAt - started)).as("refused reader's grant after the writer gave up")
                .isLessThan(Duration.ofSeconds(4));
        }
    }

    @Test
    void abandoningTheLastReadHoldHandsTheLockToTheQueuedWriter() throws Exception {
        io.lettuce.core.RedisClient listenerClient = io.lettuce.core.RedisClient.create(redis.uri());
        try (io.lettuce.core.pubsub.StatefulRedisPubSubConnection<String, String> listener =
                listenerClient.connectPubSub()) {
            listener.sync().subscribe("lock:{abandoned}:h:writer");
            long now = serverMillis();
            this.raw.zadd("lock:{abandoned}:read", now + 60_000, "reader:1|5");
            this.raw.rpush("lock:{abandoned}:write:queue", "writer:1|1000|lock:{abandoned}:h:writer");

            java.util.List<Object> reply = this.raw.eval(dev.distlock.core.internal.redis.LuaScript.READ_ABANDON.body(),
                    io.lettuce.core.ScriptOutputType.MULTI,
                    new String[] { "lock:{abandoned}:tomb:reader:1", "lock:{abandoned}:read", "lock:{abandoned}:write",
                            "lock:{abandoned}:fence", "lock:{abandoned}:write:queue" },
                    new dev.distlock.core.internal.scripts.ReadAbandonArgs("reader:1", 60_000, "lock:{abandoned}:rw",
                            86_400_000, "publish", true).argv());

            assertThat(reply).containsExactly(1L, "writer:1", 1000L);
            assertThat(this.raw.get("lock:{abandoned}:write")).startsWith("writer:1|");
            assertThat(this.raw.pttl("lock:{abandoned}:write")).isBetween(1L, 1000L);
        }
        finally {
            listenerClient.shutdown();
        }
    }
}
