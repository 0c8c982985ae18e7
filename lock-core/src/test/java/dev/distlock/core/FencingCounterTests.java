package dev.distlock.core;

import java.time.Duration;
import java.util.List;

import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fencing tokens come from one counter per lock name, bumped once per grant: the counter keeps its retention while
 * the lock is in use, and a counter that expired (or was lost) starts again above every token issued before.
 */
class FencingCounterTests extends RedisLockTest {

    @Test
    void aCounterThatExpiredStartsAgainAboveEveryEarlierToken(LockClients clients,
            RedisCommands<String, String> raw) throws Exception {
        RedisLockClient client = clients.create(LockClientOptions.builder()
            .fencingCounterRetention(Duration.ofMillis(300)).build());
        RedisLock lock = client.getLock("expiring-counter");
        long last = 0;
        for (int i = 0; i < 3; i++) {
            try (LockLease lease = lock.acquire(Duration.ofSeconds(5))) {
                assertThat(lease.fencingToken()).isGreaterThan(last);
                last = lease.fencingToken();
            }
        }
        String counter = fenceKey(raw);
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (raw.exists(counter) == 1 && System.nanoTime() - until < 0) {
            Thread.sleep(50);
        }
        assertThat(raw.exists(counter)).as("the idle counter expired").isZero();

        try (LockLease lease = lock.acquire(Duration.ofSeconds(5))) {
            assertThat(lease.fencingToken()).isGreaterThan(last);
        }
    }

    @Test
    void aCounterInUseHasItsRetentionRenewedAtLeastEvery128Tokens(LockClients clients,
            RedisCommands<String, String> raw) throws Exception {
        Duration retention = Duration.ofMinutes(10);
        RedisLockClient client = clients.create(LockClientOptions.builder().fencingCounterRetention(retention).build());
        RedisLock lock = client.getLock("busy-counter");
        lock.acquire(Duration.ofSeconds(5)).close();
        String counter = fenceKey(raw);
        // As if the counter had been created long ago: its retention runs out in 20 s unless a grant renews it.
        raw.pexpire(counter, 20_000);

        long renewedAt = -1;
        for (int i = 0; i < 128 && renewedAt < 0; i++) {
            try (LockLease lease = lock.acquire(Duration.ofSeconds(5))) {
                if (raw.pttl(counter) > 60_000) {
                    renewedAt = lease.fencingToken();
                }
            }
        }
        assertThat(renewedAt).as("a grant within 128 renewed the counter's retention").isPositive();
        assertThat(renewedAt % 128).isZero();
        assertThat(raw.pttl(counter)).isBetween(retention.toMillis() - 60_000, retention.toMillis());
    }

    private static String fenceKey(RedisCommands<String, String> raw) {
        List<String> keys = raw.keys("*fence*");
        assertThat(keys).hasSize(1);
        return keys.get(0);
    }
}
