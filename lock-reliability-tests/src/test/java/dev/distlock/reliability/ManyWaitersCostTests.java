package dev.distlock.reliability;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.distlock.core.LockLease;
import dev.distlock.core.RedisLockClient;
import dev.distlock.testsupport.LockEvent;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * F10 and L3: 200 threads of one worker JVM wait on one held lock; the worker's CPU time and the Redis calls during
 * the wait are measured, once with a long holder lease (checks come from the back-off) and once with a short one
 * (checks may also come from the holder's lease possibly ending).
 */
@DisplayName("F10 200 waiters on one held lock")
class ManyWaitersCostTests extends SingleServerFaultTest {

    private static final Duration BACKOFF = Duration.ofMillis(500);

    private static final int WAITERS = 200;

    /**
     * The holder's lease is long (30 s), so every check a waiter makes comes from its back-off: the cost of the queue
     * itself. Budget, by the queued design's contract (QueuedAcquisition): of one client's waiters on a name only the
     * one furthest ahead checks on the queue, at most once per half back-off (the jitter's lower bound), plus the
     * holder's renewals. (Before that change every one of the 200 waiters checked by its own place in the queue.)
     */
    @Test
    void waitingCostsAlmostNoCpuAndAFewRedisCallsPerBackoffStep() throws Exception {
        measure("back-off", Duration.ofSeconds(30), 0);
    }

    /**
     * The holder's watchdog lease is short (1.5 s, renewed every 500 ms), so its remaining lease is always under
     * 1.5 s. The checker also checks early when the holder's lease may have ended; one check of the queue after the
     * key expired is enough to hand the lock to the first live waiter (the acquire script does that and announces it),
     * so the budget grants one such check per period in which the lease can run out (2/3 of the lease, the least
     * remaining lease a waiter can be told), on top of the back-off budget. Before the one-checker change every waiter
     * checked at the holder's PTTL: 153-161 calls/s here.
     */
    @Test
    void aShortHolderLeaseDoesNotMakeEveryWaiterCheck() throws Exception {
        measure("short holder lease", Clients.LEASE, 1);
    }

    private void measure(String label, Duration holderLease, int leaseChecksPerPeriod) throws Exception {
        Duration window = Soak.duration(Duration.ofSeconds(10), Duration.ofSeconds(60));
        RedisLockClient holderClient = this.clients.lockClient(redis.uri(),
                Clients.fastOptions().watchdogLease(holderLease).maxBackoff(BACKOFF).build());
        LockLease held = holderClient.getLock("f10").acquire(Duration.ZERO);
        Worker worker = this.workers.start("f10-waiters", redis.uri(), "backoffMs=" + BACKOFF.toMillis());
        worker.send("wait-many f10 " + WAITERS + " " + (window.toMillis() + 60_000));
        worker.await("waiters started", Duration.ofSeconds(20), (e) -> e.info().startsWith("waiters-started"));
        await().atMost(Duration.ofSeconds(30)).until(() -> this.raw.llen("lock:{f10}:queue") == WAITERS);
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
        double renewals = seconds / (holderLease.toMillis() / 3 / 1000.0);
        // One checker per client and name (the local waiter furthest ahead), at most once per half back-off.
        double backoffChecks = seconds / (BACKOFF.toMillis() / 2.0 / 1000.0);
        double leaseChecks = leaseChecksPerPeriod * seconds / (holderLease.toMillis() * 2 / 3 / 1000.0);
        double budget = renewals + backoffChecks + leaseChecks;
        long releasedAt = System.nanoTime();
        held.close();
        LockEvent done = worker.await("all waiters done", Duration.ofSeconds(30),
            (e) -> e.info().startsWith("wait-many-done"));
        Measured.report("F10", label + ": " + WAITERS + " waiters in one JVM on one held lock (holder lease "
                + holderLease.toMillis() + " ms) for " + Measured.millis(0, elapsed) + ": waiter JVM CPU "
                + cpu.toMillis() + " ms (" + String.format(java.util.Locale.ROOT, "%.2f", 100 * cpuShare)
                + "% of one core); script calls on Redis " + calls + " ("
                + String.format(java.util.Locale.ROOT, "%.1f", calls / seconds) + "/s, budget "
                + String.format(java.util.Locale.ROOT, "%.1f", budget / seconds) + "/s incl. the holder's "
                + String.format(java.util.Locale.ROOT, "%.1f", renewals / seconds) + " renewals/s); "
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
