package dev.distlock.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

class LeaseTests extends RedisLockTest {

    @Test
    void explicitLeaseExpiresWithoutRenewalAndTellsTheHolder(RedisLockClient client, RedisCommands<String, String> raw)
            throws Exception {
        List<LeaseLoss> losses = new CopyOnWriteArrayList<>();
        LockLease lease = client.getLock("fixed").acquire(Duration.ZERO, Duration.ofMillis(600));
        lease.addLossListener(losses::add);
        assertThat(lease.remainingValidity()).isLessThanOrEqualTo(Duration.ofMillis(600));
        assertThat(raw.pttl("lock:{fixed}")).isBetween(1L, 600L);

        await().atMost(Duration.ofSeconds(5)).until(() -> raw.exists("lock:{fixed}") == 0);
        assertThat(lease.isHeld()).isFalse();
        await().atMost(Duration.ofSeconds(2)).until(() -> !losses.isEmpty());
        assertThat(losses).singleElement().extracting(LeaseLoss::reason).isEqualTo(LeaseLoss.Reason.EXPIRED);
        assertThatExceptionOfType(LockLostException.class).isThrownBy(lease::close);
    }

    @Test
    void holderNoticesItsExplicitLeaseEndedBeforeRedisExpiresTheKey(RedisLockClient client,
            RedisCommands<String, String> raw) throws Exception {
        LockLease lease = client.getLock("validity").acquire(Duration.ZERO, Duration.ofMillis(800));
        await().atMost(Duration.ofSeconds(5)).until(() -> !lease.isHeld());
        // Validity is measured from before the request was sent, minus drift, so it ends no later than the key.
        assertThat(raw.pttl("lock:{validity}")).isGreaterThanOrEqualTo(-2L);
        assertThat(lease.remainingValidity()).isZero();
    }

    @Test
    void watchdogKeepsTheLockAliveForThreeTimesTheLease(RedisLockClient client, RedisCommands<String, String> raw)
            throws Exception {
        Duration lease = LockClients.TEST_WATCHDOG_LEASE;
        try (LockLease held = client.getLock("watched").acquire(Duration.ZERO)) {
            long until = System.nanoTime() + lease.multipliedBy(3).toNanos();
            while (System.nanoTime() < until) {
                assertThat(held.isHeld()).isTrue();
                assertThat(raw.pttl("lock:{watched}")).isPositive();
                Thread.sleep(100);
            }
            assertThat(client.activeLeaseCount()).isOne();
        }
        assertThat(raw.exists("lock:{watched}")).isZero();
        assertThat(client.activeLeaseCount()).isZero();
        Thread.sleep(lease.toMillis() / 3 + 200);
        assertThat(raw.exists("lock:{watched}")).as("no renewal recreated the key").isZero();
    }

    @Test
    void watchdogRenewalNeverRecreatesADeletedKey(RedisLockClient client, RedisCommands<String, String> raw)
            throws Exception {
        LockLease lease = client.getLock("gone").acquire(Duration.ZERO);
        raw.del("lock:{gone}");
        await().atMost(Duration.ofSeconds(5)).until(() -> !lease.isHeld());
        Thread.sleep(LockClients.TEST_WATCHDOG_LEASE.toMillis());
        assertThat(raw.exists("lock:{gone}")).isZero();
        assertThatExceptionOfType(LockLostException.class).isThrownBy(lease::close);
    }
}
