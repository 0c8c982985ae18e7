package dev.distlock.core;

import java.time.Duration;

import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ScriptCacheTests extends RedisLockTest {

    @Test
    void scriptFlushBetweenEveryCallCausesNoError() throws Exception {
        RedisLockClient client = this.clients.create();
        RedisCommands<String, String> raw = this.clients.raw();
        RedisLock lock = client.getLock("flushed-scripts");
        for (int i = 0; i < 5; i++) {
            raw.scriptFlush();
            LockLease lease = lock.acquire(Duration.ZERO);
            raw.scriptFlush();
            LockLease nested = lock.acquire(Duration.ZERO);
            raw.scriptFlush();
            nested.close();
            lease.close();
            raw.scriptFlush();
            assertThat(lock.forceUnlock()).isFalse();
        }
        assertThat(raw.exists("lock:{flushed-scripts}")).isZero();
    }

    @Test
    void watchdogRenewsAfterScriptFlush() throws Exception {
        RedisLockClient client = this.clients.create();
        RedisCommands<String, String> raw = this.clients.raw();
        try (LockLease lease = client.getLock("renewed-after-flush").acquire(Duration.ZERO)) {
            for (int i = 0; i < 8; i++) {
                raw.scriptFlush();
                Thread.sleep(250);
            }
            assertThat(lease.isHeld()).isTrue();
            assertThat(raw.pttl("lock:{renewed-after-flush}")).isPositive();
        }
    }
}
