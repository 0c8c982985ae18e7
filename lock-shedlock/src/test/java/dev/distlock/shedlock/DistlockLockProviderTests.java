package dev.distlock.shedlock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import dev.distlock.core.HeldLease;
import dev.distlock.core.LeaseLoss;
import dev.distlock.core.LockClientOptions;
import dev.distlock.core.LockEventListener;
import dev.distlock.core.RedisLockClient;
import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockAssert;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockExtender;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The ShedLock provider contract on a real redis-server: the cases of ShedLock's own provider tests
 * ({@code AbstractLockProviderIntegrationTest} and {@code AbstractExtensibleLockProviderIntegrationTest} in its
 * {@code shedlock-test-support}, which is not published), written for this provider, plus what is distlock's own
 * (another instance, another thread, lost leases, closing, how an early unlock keeps the key).
 */
class DistlockLockProviderTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    private final String name = "shedlock-" + UUID.randomUUID();

    private RedisClient redisClient;

    private RedisLockClient client;

    private StatefulRedisConnection<String, String> connection;

    private RedisCommands<String, String> raw;

    private RedisLockClient otherInstance;

    private DistlockLockProvider provider;

    @BeforeEach
    void connect() {
        this.redisClient = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
        this.client = RedisLockClient.create(this.redisClient, LockClientOptions.defaults());
        this.otherInstance = RedisLockClient.create(this.redisClient, LockClientOptions.defaults());
        this.provider = new DistlockLockProvider(this.client);
        this.connection = this.redisClient.connect();
        this.raw = this.connection.sync();
    }

    @AfterEach
    void disconnect() {
        this.provider.close();
        this.client.close();
        this.otherInstance.close();
        this.connection.close();
        this.redisClient.shutdown();
    }

    @Test
    void locksAndUnlocks() {
        SimpleLock lock = lock(this.name, Duration.ofMinutes(5), Duration.ZERO).orElseThrow();
        assertThat(isLocked(this.name)).isTrue();
        lock.unlock();
        assertThat(isLocked(this.name)).isFalse();
    }

    @Test
    void refusesASecondLockOfTheSameNameAlsoOnTheSameThread() {
        SimpleLock lock = lock(this.name).orElseThrow();
        assertThat(lock(this.name)).isEmpty();
        lock.unlock();
    }

    @Test
    void refusesALockThatAnotherInstanceHolds() {
        SimpleLock lock = lock(this.name).orElseThrow();
        try (DistlockLockProvider other = new DistlockLockProvider(this.otherInstance)) {
            assertThat(other.lock(config(this.name, Duration.ofMinutes(5), Duration.ZERO))).isEmpty();
            lock.unlock();
            other.lock(config(this.name, Duration.ofMinutes(5), Duration.ZERO)).orElseThrow().unlock();
        }
    }

    @Test
    void locksTwoNamesIndependently() {
        SimpleLock first = lock(this.name).orElseThrow();
        SimpleLock second = lock(this.name + "-2").orElseThrow();
        first.unlock();
        second.unlock();
    }

    @Test
    void locksAgainRightAfterUnlock() {
        for (int i = 0; i < 10; i++) {
            SimpleLock lock = lock(this.name).orElseThrow();
            assertThat(lock(this.name)).as("attempt %d while locked", i).isEmpty();
            lock.unlock();
        }
    }

    @Test
    void unlocksFromAnotherThread() {
        SimpleLock lock = lock(this.name).orElseThrow();
        assertThat(CompletableFuture.runAsync(lock::unlock)).succeedsWithin(Duration.ofSeconds(10));
        assertThat(isLocked(this.name)).isFalse();
    }

    @Test
    void lockAtMostForExpiresTheLock() throws InterruptedException {
        assertThat(lock(this.name, Duration.ofMillis(50), Duration.ZERO)).isPresent();
        await(() -> !isLocked(this.name), Duration.ofSeconds(5));
        lock(this.name, Duration.ofMillis(50), Duration.ZERO).orElseThrow().unlock();
    }

    @Test
    void anUnlockAfterLockAtMostForDoesNotThrow() throws InterruptedException {
        SimpleLock lock = lock(this.name, Duration.ofMillis(50), Duration.ZERO).orElseThrow();
        await(() -> !isLocked(this.name), Duration.ofSeconds(5));
        lock.unlock();
    }

    @Test
    void lockAtLeastForKeepsTheLockAfterAnEarlyUnlockAndNoLonger() throws InterruptedException {
        long started = System.nanoTime();
        lock(this.name, Duration.ofMinutes(5), Duration.ofSeconds(1)).orElseThrow().unlock();
        assertThat(lock(this.name)).as("relocked before lockAtLeastFor").isEmpty();
        assertThat(isLocked(this.name)).isTrue();
        await(() -> !isLocked(this.name), Duration.ofSeconds(30));
        Duration held = Duration.ofNanos(System.nanoTime() - started);
        assertThat(held).isGreaterThanOrEqualTo(Duration.ofMillis(950)).isLessThan(Duration.ofSeconds(30));
        lock(this.name).orElseThrow().unlock();
    }

    @Test
    void anUnlockAfterLockAtLeastForReleasesAtOnce() throws InterruptedException {
        SimpleLock lock = lock(this.name, Duration.ofMinutes(5), Duration.ofMillis(100)).orElseThrow();
        TimeUnit.MILLISECONDS.sleep(150);
        lock.unlock();
        assertThat(isLocked(this.name)).isFalse();
    }

    @Test
    void closingTheProviderReleasesLocksKeptForLockAtLeastFor() {
        lock(this.name, Duration.ofMinutes(5), Duration.ofMinutes(1)).orElseThrow().unlock();
        assertThat(isLocked(this.name)).isTrue();
        this.provider.close();
        assertThat(isLocked(this.name)).isFalse();
    }

    @Test
    void aLockIsUnlockedOnce() {
        SimpleLock lock = lock(this.name).orElseThrow();
        lock.unlock();
        assertThatIllegalStateException().isThrownBy(lock::unlock);
    }

    @Test
    void extendsALockBeyondItsFirstLockAtMostFor() throws InterruptedException {
        SimpleLock lock = lock(this.name, Duration.ofMillis(500), Duration.ZERO).orElseThrow();
        SimpleLock extended = lock.extend(Duration.ofSeconds(30), Duration.ZERO).orElseThrow();
        assertThat(this.raw.pttl(key(this.name))).isBetween(20_000L, 30_000L);
        // the first lockAtMostFor is over: the lock is still held, by the extended lease
        TimeUnit.MILLISECONDS.sleep(800);
        assertThat(isLocked(this.name)).isTrue();
        assertThat(lock(this.name)).isEmpty();
        extended.unlock();
        assertThat(isLocked(this.name)).isFalse();
    }

    @Test
    void extendingCanShortenTheLock() {
        SimpleLock lock = lock(this.name, Duration.ofMinutes(5), Duration.ZERO).orElseThrow();
        SimpleLock extended = lock.extend(Duration.ofSeconds(10), Duration.ZERO).orElseThrow();
        assertThat(this.raw.pttl(key(this.name))).isBetween(1L, 10_000L);
        extended.unlock();
        assertThat(isLocked(this.name)).isFalse();
    }

    @Test
    void anUnlockedLockCannotBeExtended() {
        SimpleLock lock = lock(this.name).orElseThrow();
        lock.unlock();
        assertThatIllegalStateException().isThrownBy(() -> lock.extend(Duration.ofSeconds(10), Duration.ZERO));
        assertThat(isLocked(this.name)).isFalse();
    }

    @Test
    void anExpiredLockIsNotExtendedNorRecreated() throws InterruptedException {
        SimpleLock lock = lock(this.name, Duration.ofMillis(50), Duration.ZERO).orElseThrow();
        await(() -> !isLocked(this.name), Duration.ofSeconds(5));
        assertThat(lock.extend(Duration.ofSeconds(10), Duration.ZERO)).isEmpty();
        assertThat(isLocked(this.name)).isFalse();
    }

    @Test
    void aLockAnotherInstanceTookOverIsNotExtendedAndItsKeyIsLeftAlone() {
        SimpleLock lock = lock(this.name, Duration.ofMinutes(5), Duration.ZERO).orElseThrow();
        this.raw.del(key(this.name));
        try (DistlockLockProvider other = new DistlockLockProvider(this.otherInstance)) {
            SimpleLock theirs = other.lock(config(this.name, Duration.ofSeconds(20), Duration.ZERO)).orElseThrow();
            assertThat(lock.extend(Duration.ofMinutes(10), Duration.ZERO)).isEmpty();
            assertThat(this.raw.pttl(key(this.name))).isBetween(1L, 20_000L);
            theirs.unlock();
        }
    }

    @Test
    void anExtendedLockKeepsItsNewLockAtLeastFor() {
        SimpleLock lock = lock(this.name, Duration.ofSeconds(10), Duration.ZERO).orElseThrow();
        SimpleLock extended = lock.extend(Duration.ofSeconds(10), Duration.ofSeconds(9)).orElseThrow();
        extended.unlock();
        assertThat(isLocked(this.name)).isTrue();
        assertThat(lock(this.name)).isEmpty();
    }

    @Test
    void aLockIsExtendedOnceThenOnlyThroughItsExtension() {
        SimpleLock lock = lock(this.name, Duration.ofSeconds(10), Duration.ZERO).orElseThrow();
        SimpleLock extended = lock.extend(Duration.ofSeconds(10), Duration.ofSeconds(9)).orElseThrow();
        assertThatIllegalStateException().isThrownBy(() -> lock.extend(Duration.ofSeconds(10), Duration.ZERO));
        SimpleLock again = extended.extend(Duration.ofSeconds(20), Duration.ZERO).orElseThrow();
        assertThat(this.raw.pttl(key(this.name))).isGreaterThan(10_000L);
        again.unlock();
        assertThat(isLocked(this.name)).isFalse();
    }

    @Test
    void anExtendedLockCannotBeUnlockedThroughTheOldOne() {
        SimpleLock lock = lock(this.name, Duration.ofSeconds(10), Duration.ZERO).orElseThrow();
        SimpleLock extended = lock.extend(Duration.ofSeconds(10), Duration.ofSeconds(9)).orElseThrow();
        assertThatIllegalStateException().isThrownBy(lock::unlock);
        assertThat(isLocked(this.name)).isTrue();
        extended.extend(Duration.ofSeconds(10), Duration.ZERO).orElseThrow().unlock();
    }

    @Test
    void aTaskExtendsItsLockWithShedLocksLockExtender() {
        LockingTaskExecutor executor = new DefaultLockingTaskExecutor(this.provider);
        long[] ttl = new long[1];
        executor.executeWithLock((Runnable) () -> {
            LockExtender.extendActiveLock(Duration.ofMinutes(2), Duration.ZERO);
            ttl[0] = this.raw.pttl(key(this.name));
        }, config(this.name, Duration.ofSeconds(10), Duration.ZERO));
        assertThat(ttl[0]).isBetween(100_000L, 120_000L);
        assertThat(isLocked(this.name)).isFalse();
        assertThat(this.provider).isInstanceOf(ExtensibleLockProvider.class);
    }

    @Test
    void anEarlyUnlockLeavesTheKeyToEndJustAfterLockAtLeastFor() {
        lock(this.name, Duration.ofMinutes(5), Duration.ofSeconds(2)).orElseThrow().unlock();
        // if this instance stopped now, the lock would free after about 2 s (plus 1 s margin), not 5 minutes
        assertThat(this.raw.pttl(key(this.name))).isBetween(1L, 3_100L);
        assertThat(isLocked(this.name)).isTrue();
    }

    @Test
    void anEarlyUnlockIsNotReportedAsALoss() throws InterruptedException {
        List<String> lost = new CopyOnWriteArrayList<>();
        this.client.addEventListener(new LockEventListener() {
            @Override
            public void lost(HeldLease lease, LeaseLoss loss) {
                lost.add(lease.name() + ": " + loss.reason());
            }
        });
        lock(this.name, Duration.ofMinutes(5), Duration.ofMillis(300)).orElseThrow().unlock();
        await(() -> !isLocked(this.name), Duration.ofSeconds(10));
        // the client's watchdog would report a lease that ran out within a few of its ticks
        TimeUnit.MILLISECONDS.sleep(1_500);
        assertThat(lost).isEmpty();
    }

    @Test
    void tasksRunOneAtATimeThroughShedLocksExecutor() throws Exception {
        // ShedLock's own fuzz test, smaller: threads race for two jobs whose unguarded counters lose updates unless
        // the lock excludes
        LockingTaskExecutor executor = new DefaultLockingTaskExecutor(this.provider);
        int threads = 6;
        int iterations = 25;
        int[][] counters = new int[2][1];
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> workers = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            for (int t = 0; t < threads; t++) {
                int job = t % 2;
                workers.add(pool.submit(() -> {
                    int done = 0;
                    while (done < iterations && System.nanoTime() - deadline < 0) {
                        int[] ran = new int[1];
                        executor.executeWithLock((Runnable) () -> {
                            LockAssert.assertLocked();
                            int seen = counters[job][0];
                            Thread.onSpinWait();
                            counters[job][0] = seen + 1;
                            ran[0] = 1;
                        }, config(this.name + "-job" + job, Duration.ofMinutes(5), Duration.ofMillis(5)));
                        done += ran[0];
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get(90, TimeUnit.SECONDS);
            }
        }
        finally {
            pool.shutdownNow();
        }
        synchronized (counters) {
            assertThat(counters[0][0]).isEqualTo(threads / 2 * iterations);
            assertThat(counters[1][0]).isEqualTo(threads / 2 * iterations);
        }
    }

    private Optional<SimpleLock> lock(String lockName) {
        return lock(lockName, Duration.ofMinutes(5), Duration.ZERO);
    }

    private Optional<SimpleLock> lock(String lockName, Duration lockAtMostFor, Duration lockAtLeastFor) {
        return this.provider.lock(config(lockName, lockAtMostFor, lockAtLeastFor));
    }

    private static LockConfiguration config(String lockName, Duration lockAtMostFor, Duration lockAtLeastFor) {
        return new LockConfiguration(ClockProvider.now(), lockName, lockAtMostFor, lockAtLeastFor);
    }

    /** The lock's key on Redis (the client's default key prefix). */
    private static String key(String lockName) {
        return "lock:{" + lockName + "}";
    }

    /** Whether the lock is held, as another instance sees it. */
    private boolean isLocked(String lockName) {
        return this.otherInstance.getLock(lockName).isLocked();
    }

    private static void await(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waited %s", timeout).isNegative();
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }
}
