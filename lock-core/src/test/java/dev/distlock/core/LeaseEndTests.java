package dev.distlock.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@link LockLease#expireIn}: a fixed lease's end moves later or earlier on Redis (the key's TTL) and locally (its
 * validity, from when the request was sent), owner-checked; lost, watchdog and closed leases and bad durations are
 * refused.
 */
class LeaseEndTests extends RedisLockTest {

    private static final String KEY = "lock:{moved}";

    @Test
    void extendingSetsTheKeysTimeToLiveAndTheLeasesValidity(RedisLockClient client) throws Exception {
        try (LockLease lease = client.getLock("moved").acquire(Duration.ZERO, Duration.ofSeconds(10))) {
            long before = System.nanoTime();
            lease.expireIn(Duration.ofMinutes(2));
            long after = System.nanoTime();
            assertThat(this.raw.pttl(KEY)).isBetween(110_000L, 120_000L);
            // Valid until the send time plus the new lease, less the drift margin (1% + 2 ms).
            long validMillis = 120_000 - 1_200 - 2;
            Duration remaining = lease.remainingValidity();
            long measuredAt = System.nanoTime();
            assertThat(remaining.toMillis()).isLessThanOrEqualTo(validMillis - TimeUnit.NANOSECONDS.toMillis(
                    measuredAt - after) + 1);
            assertThat(remaining.toMillis()).isGreaterThanOrEqualTo(validMillis - TimeUnit.NANOSECONDS.toMillis(
                    measuredAt - before) - 1);
            assertThat(lease.isHeld()).isTrue();
        }
        assertThat(this.raw.exists(KEY)).isZero();
    }

    @Test
    void shorteningSetsTheKeysTimeToLiveAndTheLeasesValidity(RedisLockClient client) throws Exception {
        try (LockLease lease = client.getLock("moved").acquire(Duration.ZERO, Duration.ofMinutes(5))) {
            lease.expireIn(Duration.ofSeconds(20));
            assertThat(this.raw.pttl(KEY)).isBetween(15_000L, 20_000L);
            assertThat(lease.remainingValidity()).isLessThan(Duration.ofSeconds(20))
                .isGreaterThan(Duration.ofSeconds(15));
        }
    }

    @Test
    void anExtendedLeaseOutlivesItsFirstLeaseTime(RedisLockClient client) throws Exception {
        LockLease lease = client.getLock("moved").acquire(Duration.ZERO, Duration.ofMillis(300));
        CompletableFuture<LeaseLoss> lost = new CompletableFuture<>();
        lease.addLossListener(lost::complete);
        lease.expireIn(Duration.ofMinutes(1));
        TimeUnit.MILLISECONDS.sleep(900);
        assertThat(lease.isHeld()).isTrue();
        assertThat(lost).isNotDone();
        assertThat(this.raw.pttl(KEY)).isGreaterThan(30_000L);
        lease.close();
        assertThat(this.raw.exists(KEY)).isZero();
    }

    @Test
    void aShortenedLeaseEndsOnItsOwnClockAndFreesTheLock(RedisLockClient client) throws Exception {
        LockLease lease = client.getLock("moved").acquire(Duration.ZERO, Duration.ofMinutes(5));
        CompletableFuture<LeaseLoss> lost = new CompletableFuture<>();
        lease.addLossListener(lost::complete);
        lease.expireIn(Duration.ofMillis(300));
        // Another client gets the lock long before the five minutes the lease was acquired for.
        try (LockLease next = this.clients.create().getLock("moved").acquire(Duration.ofSeconds(30))) {
            assertThat(next.isHeld()).isTrue();
        }
        // The lease knew its new end: it ran out (EXPIRED), it did not find its key gone (RENEWAL_REFUSED).
        assertThat(lost.get(10, TimeUnit.SECONDS).reason()).isEqualTo(LeaseLoss.Reason.EXPIRED);
        assertThat(lease.isHeld()).isFalse();
        assertThatExceptionOfType(LockLostException.class).isThrownBy(lease::close);
    }

    @Test
    void aDeletedKeyIsNotRecreatedAndTheLeaseReportsItsLoss(RedisLockClient client) throws Exception {
        LockLease lease = client.getLock("moved").acquire(Duration.ZERO, Duration.ofMinutes(5));
        CompletableFuture<LeaseLoss> lost = new CompletableFuture<>();
        lease.addLossListener(lost::complete);
        this.raw.del(KEY);
        assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> lease.expireIn(Duration.ofMinutes(10)))
            .withMessageContaining("moved");
        assertThat(this.raw.exists(KEY)).isZero();
        assertThat(lease.isHeld()).isFalse();
        assertThat(lost.get(10, TimeUnit.SECONDS).reason()).isEqualTo(LeaseLoss.Reason.RENEWAL_REFUSED);
        assertThatExceptionOfType(LockLostException.class).isThrownBy(lease::close);
    }

    @Test
    void anotherHoldersKeyIsLeftAlone(RedisLockClient client) throws Exception {
        LockLease lease = client.getLock("moved").acquire(Duration.ZERO, Duration.ofMinutes(5));
        this.raw.del(KEY);
        try (LockLease other = this.clients.create().getLock("moved").acquire(Duration.ZERO, Duration.ofMinutes(1))) {
            assertThatExceptionOfType(LockLostException.class)
                .isThrownBy(() -> lease.expireIn(Duration.ofMinutes(10)));
            assertThat(this.raw.pttl(KEY)).isBetween(1L, 60_000L);
            assertThat(other.isHeld()).isTrue();
        }
        assertThatExceptionOfType(LockLostException.class).isThrownBy(lease::close);
    }

    @Test
    void aLeaseThatRanOutIsNotMoved(RedisLockClient client) throws Exception {
        LockLease lease = client.getLock("moved").acquire(Duration.ZERO, Duration.ofMillis(50));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (lease.isHeld() && System.nanoTime() - deadline < 0) {
            TimeUnit.MILLISECONDS.sleep(10);
        }
        assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> lease.expireIn(Duration.ofMinutes(1)));
        assertThat(this.raw.exists(KEY)).isZero();
    }

    @Test
    void aWatchdogLeaseIsRefusedWithWhatToDoInstead(RedisLockClient client) throws Exception {
        try (LockLease lease = client.getLock("moved").acquire(Duration.ZERO)) {
            assertThatIllegalStateException().isThrownBy(() -> lease.expireIn(Duration.ofMinutes(1)))
                .withMessageContaining("'moved'")
                .withMessageContaining("renewed by the watchdog")
                .withMessageContaining("acquire the lock with a lease time");
            assertThat(this.raw.pttl(KEY)).isLessThanOrEqualTo(LockClients.TEST_WATCHDOG_LEASE.toMillis());
            assertThat(lease.isHeld()).isTrue();
        }
    }

    @Test
    void badDurationsAreRefusedNamingTheArgument(RedisLockClient client) throws Exception {
        try (LockLease lease = client.getLock("moved").acquire(Duration.ZERO, Duration.ofMinutes(1))) {
            assertThatIllegalArgumentException().isThrownBy(() -> lease.expireIn(Duration.ZERO))
                .withMessageContaining("remaining must be positive")
                .withMessageContaining("close the lease");
            assertThatIllegalArgumentException().isThrownBy(() -> lease.expireIn(Duration.ofSeconds(-1)))
                .withMessageContaining("remaining must be positive");
            assertThatIllegalArgumentException().isThrownBy(() -> lease.expireIn(null))
                .withMessageContaining("remaining must not be null");
            assertThatIllegalArgumentException().isThrownBy(() -> lease.expireIn(Duration.ofNanos(1)))
                .withMessageContaining("shorter than the minimum");
            assertThatIllegalArgumentException().isThrownBy(() -> lease.expireIn(Duration.ofDays(366)))
                .withMessageContaining("longer than the maximum");
            assertThat(this.raw.pttl(KEY)).isGreaterThan(50_000L);
            assertThat(lease.isHeld()).isTrue();
        }
    }

    @Test
    void aClosedLeaseIsRefused(RedisLockClient client) throws Exception {
        LockLease lease = client.getLock("moved").acquire(Duration.ZERO, Duration.ofMinutes(1));
        lease.close();
        assertThatIllegalStateException().isThrownBy(() -> lease.expireIn(Duration.ofMinutes(1)))
            .withMessageContaining("was closed");
        assertThat(this.raw.exists(KEY)).isZero();
    }

    @Test
    void aNestedLeaseMovesTheEndOfTheHoldItShares(RedisLockClient client) throws Exception {
        RedisLock lock = client.getLock("moved");
        try (LockLease outer = lock.acquire(Duration.ZERO, Duration.ofMinutes(1))) {
            try (LockLease inner = lock.acquire(Duration.ZERO, Duration.ofMinutes(1))) {
                inner.expireIn(Duration.ofMinutes(10));
                assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken());
            }
            assertThat(outer.remainingValidity()).isGreaterThan(Duration.ofMinutes(9));
            assertThat(this.raw.pttl(KEY)).isGreaterThan(540_000L);
        }
    }

    @Test
    void aSemaphorePermitMovesItsOwnEnd(RedisLockClient client) throws Exception {
        try (LockLease permit = client.getSemaphore("moved", 2).acquire(Duration.ZERO, Duration.ofSeconds(10))) {
            permit.expireIn(Duration.ofMinutes(2));
            long now = serverMillis();
            Double expiry = this.raw.zscore(KEY + ":permits", permitMember());
            assertThat(expiry).isNotNull();
            assertThat(expiry.longValue() - now).isBetween(110_000L, 120_000L);
            assertThat(permit.remainingValidity()).isGreaterThan(Duration.ofSeconds(110));
        }
    }

    @Test
    void aMultiLockMovesTheEndOfEveryMember(RedisLockClient client) throws Exception {
        try (LockLease lease = client.getMultiLock("moved", "moved-too").acquire(Duration.ZERO,
                Duration.ofSeconds(10))) {
            lease.expireIn(Duration.ofMinutes(2));
            assertThat(this.raw.pttl(KEY)).isBetween(110_000L, 120_000L);
            assertThat(this.raw.pttl("lock:{moved-too}")).isBetween(110_000L, 120_000L);
            assertThat(lease.remainingValidity()).isGreaterThan(Duration.ofSeconds(110));
        }
    }

    @Test
    void aMultiLockWithAWatchdogMemberMovesNone(RedisLockClient client) throws Exception {
        RedisLock first = client.getLock("moved");
        try (LockLease watched = first.acquire(Duration.ZERO);
                LockLease lease = client.getMultiLock("moved", "moved-too").acquire(Duration.ZERO,
                        Duration.ofSeconds(10))) {
            assertThatIllegalStateException().isThrownBy(() -> lease.expireIn(Duration.ofMinutes(2)))
                .withMessageContaining("'moved'")
                .withMessageContaining("renewed by the watchdog");
            assertThat(this.raw.pttl("lock:{moved-too}")).isLessThanOrEqualTo(10_000L);
            assertThat(watched.isHeld()).isTrue();
        }
    }

    /** The only member of the permits set: the test holds one permit. */
    private String permitMember() {
        return this.raw.zrange(KEY + ":permits", 0, -1).get(0);
    }
}
