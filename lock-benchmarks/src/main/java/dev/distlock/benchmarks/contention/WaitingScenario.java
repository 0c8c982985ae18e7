package dev.distlock.benchmarks.contention;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLongArray;

import dev.distlock.benchmarks.contention.LockClient.Held;

/**
 * One client instance holds a key; every other instance blocks on it. After they settle, Redis statistics are reset
 * and counted over the blocked period (the cost of waiting). Then the holder releases and each waiter, once granted,
 * releases at once: the times to the first and to the last one through.
 */
final class WaitingScenario {

    private static final Duration WAITER_WAIT = Duration.ofSeconds(60);

    private static final Duration STOP_GRACE = Duration.ofSeconds(90);

    private final LockClient holder;

    private final List<LockClient> waiters;

    private final RedisStats stats;

    /** The last client of {@code clients} holds the lock, the others wait. */
    WaitingScenario(List<LockClient> clients, RedisStats stats) {
        this.holder = clients.get(clients.size() - 1);
        this.waiters = clients.subList(0, clients.size() - 1);
        this.stats = stats;
    }

    WaitingResult run(String lock, String key, Duration settle, Duration blocked) throws InterruptedException {
        int count = this.waiters.size();
        Held held = this.holder.tryAcquire(key, Duration.ofSeconds(5));
        if (held == null) {
            throw new IllegalStateException("the holder could not take the free key " + key);
        }
        AtomicLongArray granted = new AtomicLongArray(count);
        AtomicLongArray through = new AtomicLongArray(count);
        CountDownLatch started = new CountDownLatch(count);
        ClientThreads threads = new ClientThreads();
        double commandsPerSecond;
        long releasedAt;
        try {
            threads.start("waiter", count, waiter -> {
                started.countDown();
                Held mine = this.waiters.get(waiter).tryAcquire(key, WAITER_WAIT);
                if (mine == null) {
                    threads.failed(new IllegalStateException("waiter " + waiter + " got no grant"));
                    return;
                }
                granted.set(waiter, System.nanoTime());
                mine.release();
                through.set(waiter, System.nanoTime());
            });
            started.await();
            Thread.sleep(settle.toMillis());
            this.stats.reset();
            long from = System.nanoTime();
            Thread.sleep(blocked.toMillis());
            long commands = this.stats.snapshot().commands();
            commandsPerSecond = commands / ((System.nanoTime() - from) / 1e9);
        }
        finally {
            held.release();
            releasedAt = System.nanoTime();
            threads.stop(STOP_GRACE);
        }
        return result(lock, commandsPerSecond, granted, through, releasedAt, threads.failures());
    }

    /** The times from the holder's release to the first grant, the last grant and the last waiter's release. */
    private static WaitingResult result(String lock, double commandsPerSecond, AtomicLongArray granted,
            AtomicLongArray through, long releasedAt, int failures) {
        int count = granted.length();
        long first = Long.MAX_VALUE;
        long lastGrant = Long.MIN_VALUE;
        long lastThrough = Long.MIN_VALUE;
        for (int i = 0; i < count; i++) {
            if (granted.get(i) != 0) {
                first = Math.min(first, granted.get(i));
                lastGrant = Math.max(lastGrant, granted.get(i));
                lastThrough = Math.max(lastThrough, through.get(i));
            }
        }
        boolean any = first != Long.MAX_VALUE;
        return new WaitingResult(lock, count, commandsPerSecond, any ? (first - releasedAt) / 1e6 : Double.NaN,
                any ? (lastGrant - releasedAt) / 1e6 : Double.NaN, any ? (lastThrough - releasedAt) / 1e6 : Double.NaN,
                failures);
    }
}
