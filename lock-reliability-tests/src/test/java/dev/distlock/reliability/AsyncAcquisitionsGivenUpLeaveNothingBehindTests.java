package dev.distlock.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.distlock.core.RedisLock;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.RedisLockClient;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * F23: asynchronous acquisitions that the caller completes itself ({@code cancel}, {@code orTimeout},
 * {@code completeOnTimeout}, {@code complete}, {@code completeExceptionally}), on single locks and multi-locks, many
 * times, while another client keeps taking the same locks so that many attempts queue and are handed the lock after
 * the caller gave up. Afterwards no lock key, queue entry, renewal task or wait room may be left.
 *
 * <p>"No lease held by nobody": the given-up acquisitions ask for a 60 s fixed lease or a watchdog lease, and every
 * lease the caller does get is closed at once, as are the contender's after at most 2 ms. A raw connection samples
 * the lock keys throughout; a grant that arrived after the caller's completion and was not released would stay for
 * its 60 s lease (or forever, renewed), so no owner may be seen holding a key for longer than {@link #LONGEST_HOLD};
 * and the contender, which waits up to 10 s each time, must never fail to get a lock.
 */
@DisplayName("F23 async acquisitions given up by the caller")
class AsyncAcquisitionsGivenUpLeaveNothingBehindTests extends SingleServerFaultTest {

    private static final Duration LONG_LEASE = Duration.ofSeconds(60);

    /** Far above any legitimate hold here (at most a few ms plus scheduling stalls), far below {@link #LONG_LEASE}. */
    private static final Duration LONGEST_HOLD = Duration.ofSeconds(5);

    private static final List<String> SINGLE = List.of("f23-s0", "f23-s1", "f23-s2");

    private static final List<List<String>> MULTI = List.of(List.of("f23-m0", "f23-m1"),
            List.of("f23-m1", "f23-m2"), List.of("f23-s0", "f23-m2"));

    private static final List<String> ALL = List.of("f23-s0", "f23-s1", "f23-s2", "f23-m0", "f23-m1", "f23-m2");

    private static final int LANES = 6;

    private static final int CONTENDERS = 2;

    @Test
    void givenUpAcquisitionsLeaveNoKeyQueueEntryRenewalOrOrphanLease() throws Exception {
        int attempts = Soak.count(10_000, 100_000);
        Duration maxTime = Soak.duration(Duration.ofSeconds(90), Duration.ofMinutes(15));
        RedisLockClient tested = this.clients.lockClient(redis.uri());
        RedisLockClient contender = this.clients.lockClient(redis.uri());
        long publishesBefore = publishes();

        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong contenderGrants = new AtomicLong();
        AtomicLong contenderWorstWait = new AtomicLong();
        Map<String, AtomicLong> contenderFailures = new ConcurrentHashMap<>();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < CONTENDERS; c++) {
            threads.add(new Thread(() -> contend(contender, stop, contenderGrants, contenderWorstWait,
                    contenderFailures), "f23-contender-" + c));
        }
        AtomicLong done = new AtomicLong();
        Map<String, AtomicLong> outcomes = new ConcurrentHashMap<>();
        Map<String, AtomicLong> unexpected = new ConcurrentHashMap<>();
        long deadline = System.nanoTime() + maxTime.toNanos();
        List<Thread> lanes = new ArrayList<>();
        for (int l = 0; l < LANES; l++) {
            lanes.add(new Thread(() -> {
                while (done.getAndIncrement() < attempts && System.nanoTime() - deadline < 0) {
                    String outcome;
                    try {
                        outcome = giveUpOnce(tested);
                    }
                    catch (Exception | AssertionError ex) {
                        outcome = "unexpected";
                        unexpected.computeIfAbsent(LoadLoop.pattern(LoadLoop.describe(ex)), (k) -> new AtomicLong())
                            .incrementAndGet();
                    }
                    outcomes.computeIfAbsent(outcome, (k) -> new AtomicLong()).incrementAndGet();
                }
            }, "f23-lane-" + l));
        }
        List<String> holdKeys = ALL.stream().map(QueuedKind.REENTRANT::holdKey).toList();
        List<String> queueKeys = ALL.stream().map(QueuedKind.REENTRANT::queueKey).toList();
        HoldSampler sampler = HoldSampler.start(this.clients.raw(redis.uri()), holdKeys, queueKeys);
        long start = System.nanoTime();
        try {
            threads.forEach(Thread::start);
            lanes.forEach(Thread::start);
            for (Thread lane : lanes) {
                lane.join(maxTime.plusSeconds(30).toMillis());
                assertThat(lane.isAlive()).as("%s finished", lane.getName()).isFalse();
            }
        }
        finally {
            stop.set(true);
            for (Thread thread : threads) {
                thread.join(20_000);
            }
            sampler.close();
        }
        long elapsed = System.nanoTime() - start;
        long total = outcomes.values().stream().mapToLong(AtomicLong::get).sum();

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(tested.activeLeaseCount()).as(() -> "renewal tasks of the tested client: " + tested.heldLeases())
                .isZero();
            assertThat(tested.waitingLockCount()).as("wait rooms of the tested client").isZero();
            assertThat(contender.activeLeaseCount() + contender.waitingLockCount()).as("contender's").isZero();
            assertThat(Quiesce.leftoverLockKeys(this.raw)).as("lock keys and queues").isEmpty();
        });
        HoldSampler.Run longest = sampler.longestHold();
        long handoffs = publishes() - publishesBefore;
        Measured.report("F23", total + " async acquisitions given up by the caller in " + Measured.millis(0, elapsed)
                + " (" + (total * 1_000_000_000L / elapsed) + "/s; " + LANES + " lanes on one client, single and "
                + "multi-locks, " + CONTENDERS + " contending threads on another client: " + contenderGrants.get()
                + " grants, longest wait " + Measured.millis(0, contenderWorstWait.get()) + "); outcomes " + outcomes
                + "; handoff announcements " + handoffs + "; samples with a queue entry " + sampler.queuedSamples()
                + " of " + sampler.samples() + "; longest hold seen by one owner " + Measured.millis(0, longest.nanos())
                + "; afterwards leases=0, wait rooms=0, lock keys and queues=0");

        assertThat(unexpected).as("unexpected outcomes").isEmpty();
        assertThat(contenderFailures).as("contender acquisitions that failed (a lock left held by nobody)").isEmpty();
        assertThat(Duration.ofNanos(longest.nanos())).as("longest continuous hold of %s by %s", longest.key(),
                longest.owner()).isLessThanOrEqualTo(LONGEST_HOLD);
        assertThat(total).as("attempts").isGreaterThanOrEqualTo(Soak.enabled() ? 20_000 : attempts);
        assertThat(sampler.queuedSamples()).as("samples that saw a waiter queued").isPositive();
        assertThat(handoffs).as("locks handed to a queued waiter").isPositive();
        assertThat(outcomes.getOrDefault("given-up", new AtomicLong()).get()).as("given up").isPositive();
    }

    /** One acquisition the caller completes itself at a random moment; returns what happened. */
    private static String giveUpOnce(RedisLockClient client) throws Exception {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        boolean multi = random.nextInt(3) == 0;
        RedisLock lock = multi ? client.getMultiLock(MULTI.get(random.nextInt(MULTI.size())))
                : client.getLock(SINGLE.get(random.nextInt(SINGLE.size())));
        int waitKind = random.nextInt(20);
        Duration wait = (waitKind == 0) ? Duration.ZERO
                : (waitKind < 6) ? Duration.ofMillis(random.nextInt(1, 20)) : Duration.ofSeconds(10);
        CompletableFuture<LockLease> future = (random.nextBoolean() ? lock.acquireAsync(wait, LONG_LEASE)
                : lock.acquireAsync(wait)).toCompletableFuture();
        if (random.nextInt(3) > 0) {
            TimeUnit.MICROSECONDS.sleep(random.nextInt(0, 3_000));
        }
        switch (random.nextInt(5)) {
            case 0 -> future.cancel(random.nextBoolean());
            case 1 -> future.orTimeout(random.nextInt(0, 10), TimeUnit.MILLISECONDS);
            case 2 -> future.completeOnTimeout(null, random.nextInt(0, 10), TimeUnit.MILLISECONDS);
            case 3 -> future.complete(null);
            default -> future.completeExceptionally(new GaveUp());
        }
        LockLease lease;
        try {
            lease = future.get(15, TimeUnit.SECONDS);
        }
        catch (CancellationException ex) {
            return "given-up";
        }
        catch (ExecutionException ex) {
            Throwable cause = ex.getCause();
            if (cause instanceof TimeoutException || cause instanceof GaveUp) {
                return "given-up";
            }
            if (cause instanceof LockNotAcquiredException) {
                return "not-acquired";
            }
            throw ex;
        }
        if (lease == null) {
            return "given-up";
        }
        // The grant beat the caller's completion: the lease is the caller's to close.
        lease.close();
        return multi ? "acquired-multi" : "acquired";
    }

    /** Takes the locks the lanes want, one at a time, for up to 2 ms each, until stopped. */
    private static void contend(RedisLockClient client, AtomicBoolean stop, AtomicLong grants, AtomicLong worstWait,
            Map<String, AtomicLong> failures) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (!stop.get()) {
            String name = ALL.get(random.nextInt(ALL.size()));
            long asked = System.nanoTime();
            try (LockLease lease = client.getLock(name).acquire(Duration.ofSeconds(10))) {
                worstWait.accumulateAndGet(System.nanoTime() - asked, Math::max);
                grants.incrementAndGet();
                TimeUnit.MICROSECONDS.sleep(random.nextInt(0, 2_000));
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
            catch (RuntimeException ex) {
                failures.computeIfAbsent(name + ": " + LoadLoop.describe(ex), (k) -> new AtomicLong())
                    .incrementAndGet();
            }
            try {
                TimeUnit.MICROSECONDS.sleep(random.nextInt(0, 1_000));
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Handoff announcements made by the release and acquire scripts ({@code PUBLISH} inside Lua counts). */
    private long publishes() {
        Matcher matcher = Pattern.compile("cmdstat_publish:calls=(\\d+)").matcher(this.raw.info("commandstats"));
        return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
    }

    /** The caller's own reason to give up. */
    private static final class GaveUp extends RuntimeException {

        GaveUp() {
            super("caller gave up", null, false, false);
        }
    }
}
