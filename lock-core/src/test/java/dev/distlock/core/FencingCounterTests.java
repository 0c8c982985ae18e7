package dev.distlock.core;

import java.time.Duration;
import java.util.List;

import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fencing tokens come from one counter per lock name, floored at the server clock on every grant: the counter keeps
 * its retention while the lock is in use, and a counter that expired, was lost or went back (a failover to a lagging
 * replica, an older snapshot) never hands out a token that was issued before.
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
    void everyMintRenewsTheCountersRetention(LockClients clients, RedisCommands<String, String> raw)
            throws Exception {
        Duration retention = Duration.ofMinutes(10);
        RedisLockClient client = clients.create(LockClientOptions.builder().fencingCounterRetention(retention).build());
        RedisLock lock = client.getLock("busy-counter");
        try (LockLease lease = lock.acquire(Duration.ofSeconds(5))) {
            lease.fencingToken();
        }
        String counter = fenceKey(raw);
        // As if the counter had been created long ago: its retention runs out in 20 s unless a mint renews it.
        raw.pexpire(counter, 20_000);

        try (LockLease lease = lock.acquire(Duration.ofSeconds(5))) {
            lease.fencingToken();
        }

        assertThat(raw.pttl(counter)).isBetween(retention.toMillis() - 60_000, retention.toMillis());
    }

    @Test
    void aCounterThatWentBackNeverRepeatsAToken(LockClients clients, RedisCommands<String, String> raw)
            throws Exception {
        RedisLock lock = clients.create().getLock("counter-went-back");
        RedisLock writeLock = clients.create().getReadWriteLock("counter-went-back").writeLock();
        long highest = 0;
        for (int i = 0; i < 5; i++) {
            try (LockLease lease = lock.acquire(Duration.ofSeconds(5))) {
                highest = Math.max(highest, lease.fencingToken());
            }
        }
        // As after a failover to a replica that missed the last increments, or a restart from an older snapshot.
        String counter = fenceKey(raw);
        raw.set(counter, Long.toString(highest - 5));

        try (LockLease lease = lock.acquire(Duration.ofSeconds(5))) {
            assertThat(lease.fencingToken()).isGreaterThan(highest);
            highest = lease.fencingToken();
        }
        raw.set(counter, "1");
        try (LockLease lease = writeLock.acquire(Duration.ofSeconds(5))) {
            assertThat(lease.fencingToken()).isGreaterThan(highest);
        }
    }

    private static String fenceKey(RedisCommands<String, String> raw) {
        List<String> keys = raw.keys("*fence*");
        assertThat(keys).hasSize(1);
        return keys.get(0);
    }
}
