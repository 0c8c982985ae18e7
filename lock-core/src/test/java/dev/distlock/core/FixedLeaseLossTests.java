package dev.distlock.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A fixed (not renewed) lease learns of its loss like a watchdog one: its ownership is checked every third of its
 * lease, without extending it.
 *
 * <p>The reason tells a detected loss (RENEWAL_REFUSED) from the lease merely running out (EXPIRED), so these tests
 * fail without the checks whatever the machine's speed; the time bounds only add the promised latency, generously.
 */
class FixedLeaseLossTests extends RedisLockTest {

    /** Longer than the client's watchdog lease and its tick: only a per-lease check can see the loss in time. */
    private static final Duration FIXED_LEASE = Duration.ofSeconds(6);

    /** A third of the lease, plus a generous allowance for a busy machine; well under the lease itself. */
    private static final Duration DETECTION_BOUND = FIXED_LEASE.dividedBy(3).plusMillis(1500);

    /** A second client, the one that damages the lock in {@link #losses()}. */
    private RedisLockClient other;

    @BeforeEach
    void setUp() {
        this.other = this.clients.create();
    }

    static Stream<Arguments> losses() {
        return Stream.of(
                Arguments.of("DEL", (Consumer<FixedLeaseLossTests>) (t) -> t.raw.del("lock:{fixed}")),
                Arguments.of("FLUSHALL", (Consumer<FixedLeaseLossTests>) (t) -> t.raw.flushall()),
                Arguments.of("forceUnlock", (Consumer<FixedLeaseLossTests>) (t) -> t.other.getLock("fixed")
                    .forceUnlock()),
                Arguments.of("takeover", (Consumer<FixedLeaseLossTests>) (t) -> {
                    t.raw.del("lock:{fixed}");
                    t.other.getLock("fixed").tryAcquire();
                }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("losses")
    void aFixedLeaseLearnsOfItsLossWithinAThirdOfItsLease(String how, Consumer<FixedLeaseLossTests> damage,
            RedisLockClient client) throws Exception {
        LockLease lease = client.getLock("fixed").acquire(Duration.ZERO, FIXED_LEASE);
        CompletableFuture<LeaseLoss> lost = new CompletableFuture<>();
        lease.addLossListener(lost::complete);

        long damagedAt = System.nanoTime();
        damage.accept(this);
        LeaseLoss loss = lost.get(FIXED_LEASE.toMillis(), TimeUnit.MILLISECONDS);
        long detectedAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - damagedAt);

        assertThat(loss.reason()).isEqualTo(LeaseLoss.Reason.RENEWAL_REFUSED);
        assertThat(detectedAfterMillis).isLessThan(DETECTION_BOUND.toMillis());
        assertThat(lease.isHeld()).isFalse();
        assertThatExceptionOfType(LockLostException.class).isThrownBy(lease::close);
        System.out.println("MEASURED: fixed lease " + FIXED_LEASE.toMillis() + " ms, loss by " + how
                + " reported after " + detectedAfterMillis + " ms");
    }

    @Test
    void aShortFixedLeaseIsCheckedAtItsOwnPaceNotTheWatchdogs() throws Exception {
        // The watchdog lease is 30 s (ticks every 2.5 s by default); the fixed lease is 1.5 s.
        RedisLockClient slowWatchdog = this.clients.create(LockClientOptions.builder()
            .watchdogLease(Duration.ofSeconds(30)).build());
        Duration shortLease = Duration.ofMillis(1500);
        LockLease lease = slowWatchdog.getLock("fixed").acquire(Duration.ZERO, shortLease);
        CompletableFuture<LeaseLoss> lost = new CompletableFuture<>();
        lease.addLossListener(lost::complete);
        long deletedAt = System.nanoTime();
        this.raw.del("lock:{fixed}");

        LeaseLoss loss = lost.get(10, TimeUnit.SECONDS);
        long detectedAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - deletedAt);
        assertThat(loss.reason()).as("detected before the lease ran out").isEqualTo(LeaseLoss.Reason.RENEWAL_REFUSED);
        assertThat(detectedAfterMillis).isLessThan(shortLease.toMillis());
        System.out.println("MEASURED: fixed lease 1500 ms under a 30 s watchdog lease, DEL reported after "
                + detectedAfterMillis + " ms");
    }

    @Test
    void checksNeverExtendAFixedLeaseAndStayFew(RedisLockClient client) throws Exception {
        Duration lease = Duration.ofMillis(1800);
        long callsBefore = scriptCalls();
        LockLease held = client.getLock("fixed").acquire(Duration.ZERO, lease);
        CompletableFuture<LeaseLoss> lost = new CompletableFuture<>();
        held.addLossListener(lost::complete);
        long lastPttl = Long.MAX_VALUE;
        for (int i = 0; i < 100 && this.raw.exists("lock:{fixed}") == 1; i++) {
            long pttl = this.raw.pttl("lock:{fixed}");
            assertThat(pttl).as("the key's TTL only goes down").isLessThanOrEqualTo(lastPttl);
            lastPttl = (pttl >= 0) ? pttl : lastPttl;
            Thread.sleep(50);
        }
        assertThat(lost.get(10, TimeUnit.SECONDS).reason()).isEqualTo(LeaseLoss.Reason.EXPIRED);
        // One acquire plus at most one check per third of the lease (the last third is not checked).
        assertThat(scriptCalls() - callsBefore).isBetween(2L, 4L);
    }

    private long scriptCalls() {
        String stats = this.raw.info("commandstats");
        long calls = 0;
        for (String line : stats.split("\r?\n")) {
            if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
                String count = line.substring(line.indexOf("calls=") + 6, line.indexOf(','));
                calls += Long.parseLong(count);
            }
        }
        return calls;
    }

    @Test
    void aLeaseThatRanOutIsReportedLostToItsListenersWhenClosed() throws Exception {
        RedisLock lock = this.clients.create().getLock("ran-out");
        for (int i = 0; i < 5; i++) {
            LockLease lease = lock.acquire(Duration.ZERO, Duration.ofMillis(300));
            CompletableFuture<LeaseLoss> lost = new CompletableFuture<>();
            lease.addLossListener(lost::complete);
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (lease.isHeld() && System.nanoTime() - deadline < 0) {
                Thread.onSpinWait();
            }
            // Closed the moment its holder sees it ran out, before any check could report it: still its loss.
            assertThatExceptionOfType(LockLostException.class).isThrownBy(lease::close);
            assertThat(lost).as("round %d", i).isCompletedWithValueMatching(
                    (loss) -> loss.reason() == LeaseLoss.Reason.EXPIRED);
        }
    }
}
