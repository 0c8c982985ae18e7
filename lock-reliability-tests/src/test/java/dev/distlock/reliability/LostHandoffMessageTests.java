package dev.distlock.reliability;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.LockLease;
import dev.distlock.core.RedisLockClient;
import dev.distlock.testsupport.FaultProxy;
import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * F22 (second half): the handoff announcement is lost. The waiter's client sits behind a {@link FaultProxy} that drops
 * every pub/sub delivery, so Redis counts a listener (the connection is up) and the release hands the lock to the
 * waiter, but the waiter never hears of it. Its check at the head of the queue (every back-off) must find the lock its
 * own, so the lock is held by an owner that does not know it for at most about one back-off.
 *
 * <p>The holder's lease is 30 s, so the waiter's checks come from its back-off, not from the holder's lease running
 * out. A raw connection samples the lock key: it must go straight from the holder to the waiter (a handoff, never a
 * free key), and the waiter's lease must never claim more validity than the key has left.
 */
@DisplayName("F22 handoff message dropped")
class LostHandoffMessageTests {

    private static final Duration BACKOFF = Duration.ofMillis(500);

    /** Scheduling slack on a loaded machine, on top of the back-off. */
    private static final Duration SLACK = Duration.ofMillis(250);

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    private Clients clients;

    private FaultProxy proxy;

    private RedisCommands<String, String> raw;

    @BeforeEach
    void setUp() {
        redis.flushAll();
        this.clients = new Clients();
        this.proxy = FaultProxy.start(redis.server());
        this.raw = this.clients.raw(redis.uri());
    }

    @AfterEach
    void tearDown() throws Exception {
        this.clients.close();
        this.proxy.close();
    }

    @ParameterizedTest
    @EnumSource(QueuedKind.class)
    void aHandedOffLockReachesItsOwnerWithinTheBackoffWhenTheAnnouncementIsLost(QueuedKind kind) throws Exception {
        int rounds = Soak.count(8, 40);
        String lock = "f22b-" + kind.word();
        String holdKey = kind.holdKey(lock);
        String queueKey = kind.queueKey(lock);
        RedisLockClient holder = this.clients.lockClient(redis.uri(),
                Clients.fastOptions().watchdogLease(Duration.ofSeconds(30)).maxBackoff(BACKOFF).build());
        RedisLockClient waiter = this.clients.lockClient(this.proxy.uri(),
                Clients.fastOptions().maxBackoff(BACKOFF).build());
        this.proxy.dropPubSubMessages(true);
        RedisCommands<String, String> samplerConnection = this.clients.raw(redis.uri());
        long[] unknowing = new long[rounds];
        long worstValidityExcess = Long.MIN_VALUE;
        for (int round = 0; round < rounds; round++) {
            LockLease held = kind.lock(holder, lock).acquire(Duration.ZERO);
            String holderOwner = QueuedKind.ownerOfHold(this.raw.get(holdKey));
            CompletableFuture<Long> acquiredAt = new CompletableFuture<>();
            CompletableFuture<LockLease> waiting = kind.lock(waiter, lock).acquireAsync(Duration.ofSeconds(20))
                .toCompletableFuture();
            waiting.whenComplete((lease, ex) -> acquiredAt.complete(System.nanoTime()));
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
                .until(() -> this.raw.llen(queueKey) == 1);
            String waiterOwner = QueuedKind.ownerOf(this.raw.lindex(queueKey, 0));
            // release at a different moment of the waiter's back-off cycle each round
            Thread.sleep(ThreadLocalRandom.current().nextLong(BACKOFF.toMillis()));

            HoldSampler sampler = HoldSampler.start(samplerConnection, List.of(holdKey), List.of(queueKey));
            long releasedAt;
            LockLease lease;
            try {
                releasedAt = System.nanoTime();
                held.close();
                lease = waiting.get(10, TimeUnit.SECONDS);
            }
            finally {
                sampler.close();
            }
            unknowing[round] = acquiredAt.get() - releasedAt;
            long validityMillis = lease.remainingValidity().toMillis();
            long pttlMillis = this.raw.pttl(holdKey);
            worstValidityExcess = Math.max(worstValidityExcess, validityMillis - pttlMillis);

            assertThat(sampler.owners(holdKey)).as("round %d: owners of %s seen by a raw connection", round, holdKey)
                .containsExactly(holderOwner, waiterOwner);
            assertThat(lease.isHeld()).isTrue();
            assertThat(validityMillis).as("round %d: the waiter's validity never exceeds the key's PTTL", round)
                .isLessThanOrEqualTo(pttlMillis);
            assertThat(Duration.ofNanos(unknowing[round]))
                .as("round %d: release to the moment the new owner knows it holds the lock", round)
                .isLessThanOrEqualTo(BACKOFF.plus(SLACK));
            lease.close();
        }
        Measured.report("F22", kind.word() + " lock: " + rounds + " handoffs with the announcement dropped ("
                + this.proxy.droppedPubSubMessages() + " dropped): the key went straight from holder to waiter each "
                + "time; release to the new owner knowing it: p50 " + Measured.percentileMillis(unknowing, 50)
                + ", max " + Measured.percentileMillis(unknowing, 100) + " (back-off " + BACKOFF.toMillis()
                + " ms); waiter validity minus key PTTL at most " + worstValidityExcess + " ms");
        assertThat(this.proxy.droppedPubSubMessages()).as("announcements dropped").isGreaterThanOrEqualTo(rounds);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(holder.activeLeaseCount() + waiter.activeLeaseCount()).as("leases").isZero();
            assertThat(Quiesce.leftoverLockKeys(this.raw)).isEmpty();
        });
    }
}
