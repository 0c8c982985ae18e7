package dev.distlock.reliability;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.distlock.core.RedisLockClient;
import dev.distlock.core.SemaphoreInfo;
import dev.distlock.testsupport.LockEvent;
import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * F32: N-permit holders in child JVMs take permits in a loop while one holder is killed with SIGKILL, another frozen
 * with SIGSTOP, and Redis restarts without persistence. A sampler counts the live permits as Redis sees them (one
 * script: the server's clock and the count in one step) the whole time: never more than N, and permits keep being
 * granted after each fault.
 */
@DisplayName("F32 semaphore holders killed, frozen, Redis restarted")
class SemaphoreFaultTests extends SingleServerFaultTest {

    private static final String SEMAPHORE = "f32";

    private static final int PERMITS = 3;

    private static final String PERMITS_KEY = "lock:{" + SEMAPHORE + "}:permits";

    /** Live permits in one step on the server: members whose lease ends after the server's now. */
    private static final String LIVE_PERMITS = "local t = redis.call('time') "
            + "local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) "
            + "return redis.call('zcount', KEYS[1], '(' .. now, '+inf')";

    @Test
    void neverMoreThanNPermitsAsRedisSeesThemAndPermitsKeepComing() throws Exception {
        List<Worker> holders = this.workers.startAll(SemaphoreHolderMain.class, 5, "f32-", redis.uri(),
                "semaphore=" + SEMAPHORE, "permits=" + PERMITS, "holdMs=1000");
        RedisLockClient observer = this.clients.lockClient(redis.uri());
        AtomicBoolean sampling = new AtomicBoolean(true);
        AtomicInteger most = new AtomicInteger();
        AtomicLong samples = new AtomicLong();
        Thread sampler = new Thread(() -> sample(sampling, most, samples), "f32-sampler");
        sampler.start();
        try {
            long start = System.nanoTime();
            awaitGrants(start, 6, Duration.ofSeconds(30));

            Worker killed = freshestHolder(observer, holders);
            String killedOwner = ownerOf(observer, killed);
            long killedAt = System.nanoTime();
            killed.kill9();
            assertThat(ownerHolds(observer, killedOwner)).as("the killed worker held its permit at the kill").isTrue();
            long killedPermitBackAt = awaitPermitGone(observer, killedOwner, Duration.ofSeconds(10));
            awaitGrants(killedAt, PERMITS + 1, Duration.ofSeconds(30));
            long afterKill = System.nanoTime();

            Worker frozen = freshestHolder(observer, holders.stream().filter((w) -> w != killed).toList());
            String frozenOwner = ownerOf(observer, frozen);
            long frozenAt = System.nanoTime();
            frozen.pause();
            assertThat(ownerHolds(observer, frozenOwner)).as("the frozen worker holds its permit").isTrue();
            long frozenPermitBackAt = awaitPermitGone(observer, frozenOwner, Duration.ofSeconds(10));
            awaitGrants(frozenAt, PERMITS + 1, Duration.ofSeconds(30));
            frozen.resume();
            // Told by its loss listener (the watchdog saw it first) or by close() failing (its hold ended first).
            LockEvent frozenTold = frozen.await("told its permit was lost", Duration.ofSeconds(10),
                    (e) -> e.nanos() >= frozenAt && (e.type() == LockEvent.Type.LOST
                            || e.type() == LockEvent.Type.RELEASE_FAIL));

            long restartAt = System.nanoTime();
            redis.server().restart();
            long upAt = System.nanoTime();
            LockEvent firstAfterRestart = this.workers.history.await("a grant after the restart",
                    Duration.ofSeconds(30), (e) -> e.type() == LockEvent.Type.OK && e.nanos() > upAt);
            awaitGrants(upAt, 2 * PERMITS, Duration.ofSeconds(30));
            long lostAtRestart = this.workers.history.select((e) -> e.nanos() > restartAt
                    && (e.type() == LockEvent.Type.LOST || e.type() == LockEvent.Type.RELEASE_FAIL)).stream()
                .map(LockEvent::token).distinct().count();

            sampling.set(false);
            sampler.join(5000);
            int grants = this.workers.history.select((e) -> e.type() == LockEvent.Type.OK).size();
            Measured.report("F32", PERMITS + " permits, 5 holder JVMs holding 1 s each, lease "
                    + Clients.LEASE.toMillis() + " ms: " + samples.get() + " samples of the live permits on Redis, "
                    + "most " + most.get() + "; " + grants + " grants; SIGKILLed holder's permit back "
                    + Measured.millis(killedAt, killedPermitBackAt) + " after the kill, " + (PERMITS + 1)
                    + " grants within " + Measured.millis(killedAt, afterKill) + "; SIGSTOPped holder's permit back "
                    + Measured.millis(frozenAt, frozenPermitBackAt) + " after the stop; resumed once " + (PERMITS + 1)
                    + " more grants were made, it was told (" + frozenTold.type() + " " + frozenTold.info() + ") "
                    + Measured.millis(frozenAt, frozenTold.nanos()) + " after the stop; Redis restart took "
                    + Measured.millis(restartAt, upAt) + ", first grant "
                    + Measured.millis(upAt, firstAfterRestart.nanos()) + " after it, " + lostAtRestart
                    + " permits of the forgotten grants reported lost to their holders (listener or close)");

            assertThat(most.get()).as("live permits on Redis, at most").isBetween(1, PERMITS);
            assertThat(samples.get()).as("samples").isGreaterThan(100);
            assertThat(Duration.ofNanos(killedPermitBackAt - killedAt)).as("killed holder's permit returns")
                .isLessThanOrEqualTo(Clients.LEASE.plusSeconds(2));
            assertThat(Duration.ofNanos(frozenPermitBackAt - frozenAt)).as("frozen holder's permit returns")
                .isLessThanOrEqualTo(Clients.LEASE.plusSeconds(2));
            assertThat(lostAtRestart).as("holders told their permits were forgotten").isPositive();
            assertThat(tokenProblems()).isEmpty();
        }
        finally {
            sampling.set(false);
            sampler.join(5000);
        }
    }

    private void sample(AtomicBoolean sampling, AtomicInteger most, AtomicLong samples) {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (sampling.get() && System.nanoTime() - deadline < 0) {
            try {
                Long live = this.raw.eval(LIVE_PERMITS, ScriptOutputType.INTEGER, PERMITS_KEY);
                most.accumulateAndGet(Math.toIntExact(live), Math::max);
                samples.incrementAndGet();
            }
            catch (RuntimeException restarting) {
                // Redis is restarting: nothing to count until it is back.
            }
            try {
                Thread.sleep(2);
            }
            catch (InterruptedException ex) {
                return;
            }
        }
    }

    /**
     * The worker among {@code candidates} that holds a permit now, as Redis says, and was granted it last: it has
     * most of its hold time left, so it still holds the permit when the fault hits it.
     */
    private Worker freshestHolder(RedisLockClient observer, List<Worker> candidates) {
        List<SemaphoreInfo.Holder> holders = observer.inspectSemaphore(SEMAPHORE).holders();
        Worker freshest = null;
        long latest = Long.MIN_VALUE;
        for (Worker worker : candidates) {
            boolean holds = holders.stream().anyMatch((h) -> worker.name().equals(h.instanceId()));
            List<LockEvent> grants = this.workers.history.select((e) -> e.type() == LockEvent.Type.OK
                    && e.process().equals(worker.name()));
            if (holds && worker.isAlive() && !grants.isEmpty() && grants.get(grants.size() - 1).nanos() > latest) {
                latest = grants.get(grants.size() - 1).nanos();
                freshest = worker;
            }
        }
        if (freshest == null) {
            throw new AssertionError("no live worker holds a permit: " + holders);
        }
        return freshest;
    }

    private static String ownerOf(RedisLockClient observer, Worker worker) {
        return observer.inspectSemaphore(SEMAPHORE).holders().stream()
            .filter((h) -> worker.name().equals(h.instanceId())).findFirst().orElseThrow().owner();
    }

    private static boolean ownerHolds(RedisLockClient observer, String owner) {
        return observer.inspectSemaphore(SEMAPHORE).holders().stream().anyMatch((h) -> h.owner().equals(owner));
    }

    private static long awaitPermitGone(RedisLockClient observer, String owner, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (observer.inspectSemaphore(SEMAPHORE).holders().stream().anyMatch((h) -> h.owner().equals(owner))) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("permit of " + owner + " still held after " + timeout);
            }
            Thread.sleep(5);
        }
        return System.nanoTime();
    }

    /** Waits for the {@code count}-th grant after {@code since} (the history tests each event once, in order). */
    private void awaitGrants(long since, int count, Duration timeout) {
        AtomicInteger seen = new AtomicInteger();
        this.workers.history.await(count + " grants", timeout, (e) -> e.type() == LockEvent.Type.OK
                && e.nanos() > since && seen.incrementAndGet() >= count);
    }

    /** Permits are held side by side, so tokens are unique overall and increase per holder (its grants follow). */
    private List<String> tokenProblems() {
        List<String> problems = new java.util.ArrayList<>();
        java.util.Map<String, Long> lastByHolder = new java.util.HashMap<>();
        java.util.Set<Long> seen = new java.util.HashSet<>();
        for (LockEvent grant : this.workers.history.ofType(LockEvent.Type.OK)) {
            if (!seen.add(grant.token())) {
                problems.add("token " + grant.token() + " granted twice");
            }
            Long last = lastByHolder.put(grant.process(), grant.token());
            if (last != null && grant.token() <= last) {
                problems.add(grant.process() + ": token " + grant.token() + " after " + last);
            }
        }
        return problems;
    }
}
