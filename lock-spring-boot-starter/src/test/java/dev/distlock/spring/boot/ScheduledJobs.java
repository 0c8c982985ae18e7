package dev.distlock.spring.boot;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.spring.annotation.DistributedLock;
import dev.distlock.spring.annotation.OnNotAcquired;

import org.springframework.scheduling.annotation.Scheduled;

/**
 * {@code @Scheduled} jobs for the scheduled-job tests. Their schedules are far off (an hour): without
 * {@code @EnableScheduling} nothing runs them, and the tests call them like a scheduler would.
 */
public class ScheduledJobs {

    private final AtomicInteger runs = new AtomicInteger();

    private volatile Duration work = Duration.ZERO;

    /** How many runs started. Accessors, not fields: the tests see the bean through its proxy. */
    public int runs() {
        return this.runs.get();
    }

    /** Sets how long each run works. */
    public void work(Duration work) {
        this.work = work;
    }

    @Scheduled(fixedRate = 3_600_000, initialDelay = 3_600_000)
    @DistributedLock(name = "report")
    public void report() {
        run();
    }

    @Scheduled(fixedRate = 3_600_000, initialDelay = 3_600_000)
    @DistributedLock(name = "strict", waitTime = "200ms", onNotAcquired = OnNotAcquired.THROW)
    public void strict() {
        run();
    }

    @Scheduled(fixedRate = 3_600_000, initialDelay = 3_600_000)
    @DistributedLock(name = "brief", holdAtLeast = "1500ms")
    public void brief() {
        run();
    }

    @Scheduled(fixedRate = 3_600_000, initialDelay = 3_600_000)
    @DistributedLock(name = "kept", holdAtLeast = "1500ms")
    public void kept() {
        run();
    }

    @Scheduled(fixedRate = 3_600_000, initialDelay = 3_600_000)
    @DistributedLock(name = "long", holdAtLeast = "100ms")
    public void longer() {
        run();
    }

    private void run() {
        this.runs.incrementAndGet();
        try {
            Thread.sleep(this.work.toMillis());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
