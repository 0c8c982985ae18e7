package dev.distlock.reliability;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.distlock.core.LockLease;
import dev.distlock.core.RedisLockClient;
import dev.distlock.testsupport.LockEvent;
import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * F10 and L3: 200 threads of one worker JVM wait on one held lock; the worker's CPU time and the Redis calls during
 * the wait are measured.
 */
@DisplayName("F10 200 waiters on one held lock")
class ManyWaitersCostTests {

    private static final Duration BACKOFF = Duration.ofMillis(500);

    private static final int WAITERS = 200;

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    private final WorkerGroup workers = new WorkerGroup();

    private Clients clients;

    private RedisCommands<String, String> raw;

    @BeforeEach
    void setUp() {
        redis.flushAll();
        this.clients = new Clients();
        this.raw = this.clients.raw(redis.uri());
    }

    @AfterEach
    void tearDown() throws Exception {
        this.workers.close();
        this.clients.close();
    }

    @Test
    void waitingCostsAlmostNoCpuAndAboutOneRedisCallPerBackoffStep() throws Exception {
        Duration window = Soak.duration(Duration.ofSeconds(10), Duration.ofSeconds(60));
        RedisLockClient holderClient = this.clients.lockClient(redis.uri(),
                Clients.fastOptions().maxBackoff(BACKOFF).build());
        LockLease held = holderClient.getLock("f10").acquire(Duration.ZERO);
        Worker worker = this.workers.start("f10-waiters", redis.uri(), "backoffMs=" + BACKOFF.toMillis());
        long sent = System.nanoTime();
        worker.send("wait-many f10 " + WAITERS + " " + (window.toMillis() + 60_000));
        worker.await("waiters started", Duration.ofSeconds(20), (e) -> e.info().startsWith("waiters-started"));
        Thread.sleep(2_000); // warm-up: threads parked, subscription made, JIT settled

        ProcessHandle child = ProcessHandle.of(worker.pid()).orElseThrow();
        Duration cpuBefore = child.info().totalCpuDuration().orElseThrow();
        long callsBefore = scriptCalls();
        long start = System.nanoTime();
        Thread.sleep(window.toMillis());
        long elapsed = System.nanoTime() - start;
        long calls = scriptCalls() - callsBefore;
        Duration cpu = child.info().totalCpuDuration().orElseThrow().minus(cpuBefore);

        double seconds = elapsed / 1e9;
        double cpuShare = cpu.toNanos() / (double) elapsed;
        // holder renewals: one per renewal period; the waiters' client: one attempt per back-off step at most
        double renewals = seconds / (Clients.LEASE.toMillis() / 3 / 1000.0);
        double budget = renewals + seconds / (BACKOFF.toMillis() / 2 / 1000.0);
        long releasedAt = System.nanoTime();
        held.close();
        LockEvent done = worker.await("all waiters done", Duration.ofSeconds(30),
            (e) -> e.info().startsWith("wait-many-done"));
        Measured.report("F10", WAITERS + " waiters in one JVM on one held lock for " + Measured.millis(0, elapsed)
                + ": waiter JVM CPU " + cpu.toMillis() + " ms (" + String.format(java.util.Locale.ROOT, "%.2f", 100
                * cpuShare) + "% of one core); script calls on Redis " + calls + " ("
                + String.format(java.util.Locale.ROOT, "%.1f", calls / seconds) + "/s, budget "
                + String.format(java.util.Locale.ROOT, "%.1f", budget / seconds) + "/s incl. the holder's renewals); "
                + "after release all " + done.value("acquired") + " waiters acquired in turn within "
                + Measured.millis(releasedAt, done.nanos()));
        assertThat(cpuShare).as("waiter JVM CPU share while waiting").isLessThan(0.05);
        assertThat((double) calls).as("Redis script calls in the window").isLessThanOrEqualTo(budget + 3);
        assertThat(done.value("acquired")).isEqualTo(Integer.toString(WAITERS));
        assertThat(Quiesce.leftoverLockKeys(this.raw)).isEmpty();
    }

    private long scriptCalls() {
        String stats = this.raw.info("commandstats");
        long total = 0;
        Matcher matcher = Pattern.compile("cmdstat_(evalsha|eval):calls=(\\d+)").matcher(stats);
        while (matcher.find()) {
            total += Long.parseLong(matcher.group(2));
        }
        return total;
    }
}
