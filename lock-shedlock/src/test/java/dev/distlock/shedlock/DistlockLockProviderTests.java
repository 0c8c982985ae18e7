package dev.distlock.shedlock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.RedisLockClient;
import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockAssert;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The ShedLock provider contract on a real redis-server: the cases of ShedLock's own provider tests
 * ({@code AbstractLockProviderIntegrationTest} in its {@code shedlock-test-support}, which is not published), written
 * for this provider, plus what is distlock's own (another instance, another thread, lost leases, closing).
 */
class DistlockLockProviderTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    private final String name = "shedlock-" + UUID.randomUUID();

    private RedisClient redisClient;

    private RedisLockClient client;

    private RedisLockClient otherInstance;

    private DistlockLockProvider provider;

    @BeforeEach
    void connect() {
        this.redisClient = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
        this.client = RedisLockClient.create(this.redisClient, LockClientOptions.defaults());
        this.otherInstance = RedisLockClient.create(this.redisClient, LockClientOptions.defaults());
        this.provider = new DistlockLockProvider(this.client);
    }

    @AfterEach
    void disconnect() {
        this.provider.close();
        this.client.close();
        this.otherInstance.close();
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
    void extendingIsNotSupportedAndLeavesTheLockUsable() {
        SimpleLock lock = lock(this.name).orElseThrow();
        assertThatExceptionOfType(UnsupportedOperationException.class)
            .isThrownBy(() -> lock.extend(Duration.ofMinutes(10), Duration.ZERO));
        lock.unlock();
        assertThat(isLocked(this.name)).isFalse();
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
