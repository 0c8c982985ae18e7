package dev.distlock.benchmarks.contention;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;

import dev.distlock.benchmarks.contention.LockClient.Held;

/**
 * Threads share one client instance, each acquiring and releasing its own key in a loop with no wait time: the
 * library's hot path and its per-call overhead, against the same loop on the baseline. The harness alternates short
 * rounds of each subject, so that a change in machine load hits both alike.
 */
final class UncontendedScenario {

    private static final Duration STOP_GRACE = Duration.ofSeconds(30);

    private final LockClient client;

    private final RedisStats stats;

    UncontendedScenario(LockClient client, RedisStats stats) {
        this.client = client;
        this.stats = stats;
    }

    /** One measured round; rounds of the same subject and thread count add up with {@link Round#plus}. */
    Round run(String keyPrefix, int threadCount, Duration warmup, Duration measure) throws InterruptedException {
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
        try {
            Thread.sleep(warmup.toMillis());
            double redisCpuBefore = this.stats.snapshot().cpuSeconds();
            this.stats.reset();
            long cyclesBefore = cycles.sum();
            long cpuBefore = ProcessCpu.nanos();
            long from = System.nanoTime();
            Thread.sleep(measure.toMillis());
            RedisStats.Snapshot counted = this.stats.snapshot();
            return new Round(cycles.sum() - cyclesBefore, System.nanoTime() - from, counted.commands(),
                    ProcessCpu.nanos() - cpuBefore, counted.cpuSeconds() - redisCpuBefore, 0, counted.perCommand())
                .withFailures(threads.failures());
        }
        finally {
            threads.stop(STOP_GRACE);
        }
    }

    /** Raw totals of one or more measured rounds. */
    record Round(long cycles, long nanos, long commands, long clientCpuNanos, double redisCpuSeconds, int failures,
            Map<String, RedisStats.CommandStat> perCommand) {

        Round plus(Round other) {
            Map<String, RedisStats.CommandStat> sum = new TreeMap<>(this.perCommand);
            other.perCommand.forEach((command, stat) -> sum.merge(command, stat, RedisStats.CommandStat::plus));
            return new Round(this.cycles + other.cycles, this.nanos + other.nanos, this.commands + other.commands,
                    this.clientCpuNanos + other.clientCpuNanos, this.redisCpuSeconds + other.redisCpuSeconds,
                    this.failures + other.failures, sum);
        }

        Round withFailures(int count) {
            return new Round(this.cycles, this.nanos, this.commands, this.clientCpuNanos, this.redisCpuSeconds, count,
                    this.perCommand);
        }

        UncontendedResult result(String lock, int threads) {
            double perCycle = Math.max(1, this.cycles);
            Map<String, UncontendedResult.CommandCost> costs = new TreeMap<>();
            this.perCommand.forEach((command, stat) -> {
                if (stat.calls() > 0) {
                    costs.put(command, new UncontendedResult.CommandCost(stat.calls() / perCycle,
                            stat.usec() / (double) stat.calls(), stat.usec() / perCycle));
                }
            });
            return new UncontendedResult(lock, threads, this.cycles / (this.nanos / 1e9), this.commands / perCycle,
                    this.clientCpuNanos / 1e3 / perCycle, this.redisCpuSeconds * 1e6 / perCycle, this.failures,
                    costs);
        }
    }
}
