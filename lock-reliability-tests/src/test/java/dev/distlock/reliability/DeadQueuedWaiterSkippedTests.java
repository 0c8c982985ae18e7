package dev.distlock.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.distlock.core.LockLease;
import dev.distlock.core.RedisLockClient;
import dev.distlock.testsupport.LockEvent;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * F22 (first half): waiters queued in Redis whose JVMs are killed with SIGKILL while queued are skipped by the release
 * that reaches them, and the live waiter queued behind each dead one is handed the lock at once.
 *
 * <p>Four waiter JVMs queue in order w0, w1, w2, w3 behind a holder in this JVM; w0 and w2 are killed. The holder's
 * release must hand the lock to w1 (skipping w0), and w1's release to w3 (skipping w2). Every waiter's back-off is
 * 4 s and every lease 30 s, and a waiter k places back checks on its place no sooner than half of
 * {@code backoff * (k + 1)^2}: w1 (second in the queue) not within 8 s, w3 not within 30 s. So a live waiter that gets
 * the lock within {@link #PROMPT} of the release was handed it by that release, not by its own check; and the dead
 * owners' queue deadlines (60 s) are far away, so only the dead client's silence can have skipped them. A second
 * connection samples the lock key throughout: a dead owner must never be seen holding it.
 */
@DisplayName("F22 queued waiter's JVM killed while queued")
class DeadQueuedWaiterSkippedTests extends SingleServerFaultTest {

    /** Back-off of the waiter JVMs: long, so that only a handoff can give them the lock quickly. */
    private static final Duration BACKOFF = Duration.ofSeconds(4);

    /** Lease of every hold: long, so that no waiter checks because the holder's lease may have ended. */
    private static final Duration LEASE = Duration.ofSeconds(30);

    /** Release to the next live waiter's grant; a check by the waiter itself could come no sooner than 8 s. */
    private static final Duration PROMPT = Duration.ofMillis(1500);

    @ParameterizedTest
    @EnumSource(QueuedKind.class)
    void deadWaitersAreSkippedAndTheLiveOneBehindGetsTheLockAtOnce(QueuedKind kind) throws Exception {
        String lock = "f22a-" + kind.word();
        String holdKey = kind.holdKey(lock);
        String queueKey = kind.queueKey(lock);
        RedisLockClient holderClient = this.clients.lockClient(redis.uri(),
                Clients.fastOptions().watchdogLease(LEASE).maxBackoff(BACKOFF).build());
        LockLease held = kind.lock(holderClient, lock).acquire(Duration.ZERO);
        String holderOwner = QueuedKind.ownerOfHold(this.raw.get(holdKey));
        List<Worker> queue = this.workers.startAll(4, "f22a-" + kind.word() + "-w", redis.uri(),
                "backoffMs=" + BACKOFF.toMillis(), "leaseMs=" + LEASE.toMillis());
        long[] queuedAt = new long[queue.size()];
        for (int i = 0; i < queue.size(); i++) {
            queue.get(i).send("acquire " + lock + " 60000 0 " + kind.word());
            long expected = i + 1;
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(5))
                .until(() -> this.raw.llen(queueKey) == expected);
            queuedAt[i] = System.nanoTime();
        }
        List<String> entries = this.raw.lrange(queueKey, 0, -1);
        List<String> owners = entries.stream().map(QueuedKind::ownerOf).toList();

        queue.get(0).kill9();
        queue.get(2).kill9();
        // Redis has closed the dead clients' connections: nobody listens on their wake channels any more.
        await().atMost(Duration.ofSeconds(10)).until(() -> numsub(QueuedKind.channelOf(entries.get(0))) == 0
                && numsub(QueuedKind.channelOf(entries.get(2))) == 0);

        RedisCommands<String, String> samplerConnection = this.clients.raw(redis.uri());
        List<String> delays = new ArrayList<>();
        List<Long> delayNanos = new ArrayList<>();
        HoldSampler sampler = HoldSampler.start(samplerConnection, List.of(holdKey), List.of(queueKey));
        try {
            long releasedAt = System.nanoTime();
            held.close();
            LockEvent first = queue.get(1).await(LockEvent.Type.OK, lock, releasedAt, Duration.ofSeconds(20));
            delayNanos.add(first.nanos() - releasedAt);
            delays.add(Measured.millis(releasedAt, first.nanos()));

            long secondRelease = System.nanoTime();
            queue.get(1).send("release " + lock);
            LockEvent released = queue.get(1).await(LockEvent.Type.RELEASED, lock, secondRelease,
                    Duration.ofSeconds(10));
            LockEvent second = queue.get(3).await(LockEvent.Type.OK, lock, secondRelease, Duration.ofSeconds(40));
            // the worker's release ends before it reports RELEASED: measure from when it was asked to release
            delayNanos.add(second.nanos() - secondRelease);
            delays.add(Measured.millis(secondRelease, second.nanos()) + " (release reported after "
                    + Measured.millis(secondRelease, released.nanos()) + ")");
            // The premise: neither live waiter can have checked on its place yet (w1 no sooner than 2 back-offs after
            // it queued, w3 no sooner than the holder's remaining lease of 20 s or more).
            assertThat(Duration.ofNanos(first.nanos() - queuedAt[1])).as("w1 queued to grant")
                .isLessThan(BACKOFF.multipliedBy(2));
            assertThat(Duration.ofNanos(second.nanos() - queuedAt[3])).as("w3 queued to grant")
                .isLessThan(LEASE.multipliedBy(2).dividedBy(3));
        }
        finally {
            sampler.close();
            queue.get(3).send("release " + lock);
        }
        List<String> sampled = sampler.owners(holdKey);
        Measured.report("F22", kind.word() + " lock: waiters w0..w3 queued, w0 and w2 killed (kill -9): holder -> w1 "
                + "after " + delays.get(0) + ", w1 -> w3 after " + delays.get(1) + "; owners of the key seen by a raw "
                + "connection: " + describe(sampled, owners, holderOwner) + " (waiter back-off " + BACKOFF.toMillis()
                + " ms, so a check by w1 could come no sooner than " + BACKOFF.multipliedBy(2).toMillis() + " ms)");

        assertThat(sampled).as("owners of %s seen by a raw connection", holdKey)
            .doesNotContain(owners.get(0), owners.get(2))
            .containsSubsequence(holderOwner, owners.get(1), owners.get(3));
        assertThat(sampled).as("owners of %s seen by a raw connection", holdKey)
            .allMatch((owner) -> owner.isEmpty() || owner.equals(holderOwner) || owner.equals(owners.get(1))
                    || owner.equals(owners.get(3)));
        for (long delay : delayNanos) {
            assertThat(Duration.ofNanos(delay)).as("release to the next live waiter's grant")
                .isLessThanOrEqualTo(PROMPT);
        }
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
            assertThat(Quiesce.leftoverLockKeys(this.raw)).isEmpty());
    }

    /** The sampled owners by role: holder, w0..w3, or "none" for an absent key. */
    private static String describe(List<String> sampled, List<String> waiters, String holder) {
        return sampled.stream().map((owner) -> owner.isEmpty() ? "none" : owner.equals(holder) ? "holder"
                : waiters.contains(owner) ? "w" + waiters.indexOf(owner) : owner).toList().toString();
    }

    private long numsub(String channel) {
        Map<String, Long> counts = this.raw.pubsubNumsub(channel);
        return counts.getOrDefault(channel, 0L);
    }
}
