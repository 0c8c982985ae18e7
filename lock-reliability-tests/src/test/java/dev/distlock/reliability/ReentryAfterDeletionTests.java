package dev.distlock.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.distlock.core.RedisLock;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockLostException;
import dev.distlock.core.RedisLockClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** F13 and S4: reentry to depth 5, and an external DEL of the key at depth 2. */
@DisplayName("F13 reentry depth 5, external DEL at depth 2")
class ReentryAfterDeletionTests extends SingleServerFaultTest {

    private RedisLockClient client;

    @BeforeEach
    void setUp() {
        this.client = this.clients.lockClient(redis.uri());
    }

    @Test
    void onlyTheLastOfFiveUnlocksDeletesTheKey() throws Exception {
        RedisLock lock = this.client.getLock("f13-depth");
        List<LockLease> leases = new ArrayList<>();
        for (int depth = 1; depth <= 5; depth++) {
            leases.add(lock.acquire(Duration.ZERO));
        }
        assertThat(leases).extracting(LockLease::fencingToken).containsOnly(leases.get(0).fencingToken());
        for (int depth = 5; depth >= 2; depth--) {
            leases.get(depth - 1).close();
            assertThat(this.raw.exists("lock:{f13-depth}")).as("key after unlock at depth %d", depth).isEqualTo(1);
            assertThat(lock.isHeldByCurrentThread()).isTrue();
        }
        leases.get(0).close();
        assertThat(this.raw.exists("lock:{f13-depth}")).isZero();
        assertThat(this.client.activeLeaseCount()).isZero();
    }

    @Test
    void reentryAfterAnExternalDeleteFailsWithLostAndNeverRecreatesTheKey() throws Exception {
        RedisLock lock = this.client.getLock("f13-del");
        LockLease outer = lock.acquire(Duration.ZERO);
        LockLease second = lock.acquire(Duration.ZERO);
        this.raw.del("lock:{f13-del}");

        assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> lock.acquire(Duration.ZERO))
            .satisfies((ex) -> assertThat(ex.fencingToken()).isEqualTo(outer.fencingToken()));
        assertThat(this.raw.exists("lock:{f13-del}")).as("reentry recreated the key").isZero();
        assertThat(outer.isHeld()).isFalse();
        assertThatExceptionOfType(LockLostException.class).isThrownBy(second::close);
        assertThatExceptionOfType(LockLostException.class).isThrownBy(outer::close);
        // renewal never recreates it either
        Thread.sleep(Clients.LEASE.toMillis());
        assertThat(this.raw.exists("lock:{f13-del}")).isZero();
        assertThat(this.client.activeLeaseCount()).isZero();
        try (LockLease fresh = lock.acquire(Duration.ZERO)) {
            assertThat(fresh.fencingToken()).isGreaterThan(outer.fencingToken());
        }
    }
}
