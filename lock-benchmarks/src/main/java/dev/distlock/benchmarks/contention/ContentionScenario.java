package dev.distlock.benchmarks.contention;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.distlock.benchmarks.contention.LockClient.Held;

/**
 * N client instances, one thread each, take the same key in a loop: acquire, hold for the critical section, release,
 * and immediately try again. After the warm-up, Redis statistics are reset and every grant is recorded for the
 * measured window.
 */
final class ContentionScenario {

    static final Duration ACQUIRE_WAIT = Duration.ofSeconds(10);

    private static final Duration STOP_GRACE = Duration.ofSeconds(30);

    private final List<LockClient> clients;

    private final RedisStats stats;

    ContentionScenario(List<LockClient> clients, RedisStats stats) {
        this.clients = clients;
        this.stats = stats;
    }

    ContentionResult run(String lock, String key, int sectionMillis, Duration warmup, Duration measure)
            throws InterruptedException {
        int count = this.clients.size();
        long section = Duration.ofMillis(sectionMillis).toNanos();
        List<List<Attempt>> attempts = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            attempts.add(new ArrayList<>());
        }
        ClientThreads threads = new ClientThreads();
        threads.start("contender", count, client -> contend(threads, this.clients.get(client), client, key, section,
                attempts.get(client)));
        long from;
        long to;
        RedisStats.Snapshot counted;
        double redisCpuBefore;
        long clientCpu;
        try {
            Thread.sleep(warmup.toMillis());
            this.stats.reset();
            redisCpuBefore = this.stats.snapshot().cpuSeconds();
            clientCpu = ProcessCpu.nanos();
            from = System.nanoTime();
            Thread.sleep(measure.toMillis());
            clientCpu = ProcessCpu.nanos() - clientCpu;
            counted = this.stats.snapshot();
            to = System.nanoTime();
        }
        finally {
            threads.stop(STOP_GRACE);
        }
        return new ContentionAnalysis(attempts, from, to).result(lock, sectionMillis, counted.commands(),
                counted.cpuSeconds() - redisCpuBefore, clientCpu, threads.failures());
    }

    /** One client's loop until the threads stop: acquire, hold for {@code section} nanoseconds, release. */
    private static void contend(ClientThreads threads, LockClient locks, int client, String key, long section,
            List<Attempt> own) throws InterruptedException {
        while (!threads.stopping()) {
            long started = System.nanoTime();
            Held held;
            try {
                held = locks.tryAcquire(key, ACQUIRE_WAIT);
            }
            catch (RuntimeException ex) {
                threads.failed(ex);
                Thread.sleep(1);
                continue;
            }
            long acquired = System.nanoTime();
            if (held == null) {
                threads.failed(new IllegalStateException("no grant within " + ACQUIRE_WAIT));
                own.add(new Attempt(client, started, acquired, acquired, acquired, false));
                continue;
            }
            if (section > 0) {
                ClientThreads.sleepUntil(acquired + section);
            }
            long releasing = System.nanoTime();
            try {
                held.release();
            }
            catch (RuntimeException ex) {
                threads.failed(ex);
            }
            own.add(new Attempt(client, started, acquired, releasing, System.nanoTime(), true));
        }
    }
}
