package dev.distlock.benchmarks.contention;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

import dev.distlock.benchmarks.contention.LockClient.Held;

/**
 * Threads share one client instance, each acquiring and releasing its own key in a loop with no wait time: the
 * library's hot path and its per-call overhead, against the same loop on the baseline.
 */
final class UncontendedScenario {

    private static final Duration STOP_GRACE = Duration.ofSeconds(30);

    private final LockClient client;

    private final RedisStats stats;

    UncontendedScenario(LockClient client, RedisStats stats) {
        this.client = client;
        this.stats = stats;
    }

    UncontendedResult run(String lock, String keyPrefix, int threadCount, Duration warmup, Duration measure)
            throws InterruptedException {
        LongAdder cycles = new LongAdder();
        ClientThreads threads = new ClientThreads();
        threads.start("uncontended", threadCount, thread -> {
            String key = keyPrefix + thread;
            while (!threads.stopping()) {
                Held held = this.client.tryAcquire(key, Duration.ZERO);
                if (held == null) {
                    threads.failed(new IllegalStateException("own key " + key + " was not free"));
                    continue;
                }
                held.release();
                cycles.increment();
            }
        });
        long ops;
        long nanos;
        long clientCpu;
        RedisStats.Snapshot counted;
        double redisCpuBefore;
        try {
            Thread.sleep(warmup.toMillis());
            redisCpuBefore = this.stats.snapshot().cpuSeconds();
            this.stats.reset();
            long cyclesBefore = cycles.sum();
            long cpuBefore = processCpuNanos();
            long from = System.nanoTime();
            Thread.sleep(measure.toMillis());
            counted = this.stats.snapshot();
            ops = cycles.sum() - cyclesBefore;
            nanos = System.nanoTime() - from;
            clientCpu = processCpuNanos() - cpuBefore;
        }
        finally {
            threads.stop(STOP_GRACE);
        }
        double perOp = Math.max(1, ops);
        return new UncontendedResult(lock, threadCount, ops / (nanos / 1e9), counted.commands() / perOp,
                clientCpu / 1e3 / perOp, (counted.cpuSeconds() - redisCpuBefore) * 1e6 / perOp, threads.failures());
    }

    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return 0;
    }
}
