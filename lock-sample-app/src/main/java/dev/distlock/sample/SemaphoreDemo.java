package dev.distlock.sample;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.core.LockTemplate;
import dev.distlock.core.RedisLockClient;
import dev.distlock.core.RedisSemaphore;

import org.springframework.stereotype.Component;

/**
 * Runs {@code workers} jobs at once that may run at most {@code permits} at a time, across every instance of the
 * sample: each job takes a permit of the semaphore {@code sample:exports} through
 * {@link LockTemplate#executeWithPermit}, counts how many jobs run at once and how many permits Redis shows held, works
 * for 100 ms and returns its permit.
 */
@Component
public class SemaphoreDemo {

    /** Most workers one run accepts. */
    static final int MAX_WORKERS = 50;

    /** The semaphore the demonstration runs on. */
    static final String SEMAPHORE = "sample:exports";

    private final RedisLockClient lockClient;

    private final LockTemplate lockTemplate;

    /**
     * @param lockClient hands out the semaphore
     * @param lockTemplate runs each job holding a permit
     */
    public SemaphoreDemo(RedisLockClient lockClient, LockTemplate lockTemplate) {
        this.lockClient = lockClient;
        this.lockTemplate = lockTemplate;
    }

    /** Runs the jobs with {@code permits} permits (the count on Redis is set to it first) and reports. */
    public SemaphoreReport run(int workers, int permits) throws InterruptedException {
        RedisSemaphore semaphore = this.lockClient.getSemaphore(SEMAPHORE, permits);
        semaphore.setPermits(permits);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostRunning = new AtomicInteger();
        AtomicInteger mostHeldOnRedis = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(workers);
        try {
            List<Future<?>> jobs = new ArrayList<>();
            for (int i = 0; i < workers; i++) {
                jobs.add(threads.submit(() -> this.lockTemplate.executeWithPermit(semaphore, Duration.ofSeconds(30),
                        (permit) -> {
                            mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
                            mostHeldOnRedis.accumulateAndGet(semaphore.holders().size(), Math::max);
                            Thread.sleep(100);
                            running.decrementAndGet();
                            return done.incrementAndGet();
                        })));
            }
            for (Future<?> job : jobs) {
                try {
                    job.get(60, TimeUnit.SECONDS);
                }
                catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException ex) {
                    // counted below: a job that failed did not finish
                }
            }
        }
        finally {
            threads.shutdownNow();
        }
        return new SemaphoreReport(SEMAPHORE, workers, permits, done.get(), mostRunning.get(), mostHeldOnRedis.get());
    }
}
