package dev.distlock.core;

import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** {@link RedisLockClient#inspect} and owner identity: who holds a lock, how long, which token, who waits. */
class LockInspectionTests extends RedisLockTest {

    private RedisLockClient orders;

    private RedisLockClient billing;

    @BeforeEach
    void setUp() {
        this.orders = this.clients.create(options("orders@host-a:1"));
        this.billing = this.clients.create(options("billing@host-b:2"));
    }

    private static LockClientOptions options(String instanceId) {
        return LockClientOptions.builder().watchdogLease(LockClients.TEST_WATCHDOG_LEASE).instanceId(instanceId).build();
    }

    @Test
    void ownerTokensOnRedisNameTheInstance() throws Exception {
        try (LockLease lease = this.orders.getLock("who").acquire(Duration.ZERO)) {
            assertThat(this.raw.get("lock:{who}")).as("the hold is 'owner|' until its token is asked for").endsWith("|");
            long token = lease.fencingToken();
            String hold = this.raw.get("lock:{who}");
            assertThat(hold).as("the hold is 'owner|token'").endsWith("|" + token);
            String owner = hold.substring(0, hold.lastIndexOf('|'));
            assertThat(owner).startsWith("orders@host-a:1:").doesNotContain(" ", "|");
            assertThat(LockInfo.instanceIdOf(owner)).isEqualTo("orders@host-a:1");
        }
        assertThat(this.orders.instanceId()).isEqualTo("orders@host-a:1");
    }

    @Test
    void inspectionOfAHeldLockNamesHolderLeaseTokenAndWaiters() throws Exception {
        try (LockLease lease = this.orders.getLock("held").acquire(Duration.ZERO, Duration.ofSeconds(20))) {
            this.raw.rpush("lock:{held}:queue", "w1", "w2");
            lease.fencingToken();
            LockInfo info = this.billing.inspect("held");
            assertThat(info.held()).isTrue();
            assertThat(info.mode()).isEqualTo(LockInfo.Mode.EXCLUSIVE);
            assertThat(this.raw.get("lock:{held}")).isEqualTo(info.owner() + "|" + lease.fencingToken());
            assertThat(info.ownerInstanceId()).isEqualTo("orders@host-a:1");
            assertThat(info.remainingLease()).isBetween(Duration.ofSeconds(10), Duration.ofSeconds(20));
            assertThat(info.fencingToken()).isEqualTo(lease.fencingToken()).isPositive();
            assertThat(info.queuedWaiters()).isEqualTo(2);
            assertThat(info.currentThreadHoldCount()).isZero();
        }
    }

    @Test
    void inspectionCountsTheCallingThreadsReentrantHolds() throws Exception {
        RedisLock lock = this.orders.getLock("mine");
        try (LockLease outer = lock.acquire(Duration.ZERO); LockLease inner = lock.acquire(Duration.ZERO)) {
            assertThat(this.orders.inspect("mine").currentThreadHoldCount()).isEqualTo(2);
        }
        LockInfo after = this.orders.inspect("mine");
        assertThat(after.currentThreadHoldCount()).isZero();
        assertThat(after.mode()).isEqualTo(LockInfo.Mode.FREE);
        assertThat(after.owner()).isNull();
        assertThat(after.remainingLease()).isZero();
        assertThat(after.fencingToken()).isZero();
    }

    @Test
    void inspectionSeesReadAndWriteHolds() throws Exception {
        ReadWriteRedisLock rw = this.orders.getReadWriteLock("doc");
        try (LockLease write = rw.writeLock().acquire(Duration.ZERO)) {
            LockInfo info = this.billing.inspect("doc");
            assertThat(info.mode()).isEqualTo(LockInfo.Mode.WRITE);
            assertThat(info.ownerInstanceId()).isEqualTo("orders@host-a:1");
            assertThat(info.fencingToken()).isEqualTo(write.fencingToken());
        }
        try (LockLease read1 = rw.readLock().acquire(Duration.ZERO);
                LockLease read2 = this.billing.getReadWriteLock("doc").readLock().acquire(Duration.ZERO)) {
            LockInfo info = this.orders.inspect("doc");
            assertThat(info.mode()).isEqualTo(LockInfo.Mode.READ);
            assertThat(info.readHolds()).isEqualTo(2);
            assertThat(info.remainingLease()).isPositive();
        }
    }

    @Test
    void inspectionReportsTheHoldersOwnTokenWhenAnotherKindOfTheNameMintedLater() throws Exception {
        try (LockLease plain = this.orders.getLock("shared-name").acquire(Duration.ZERO)) {
            long plainToken = plain.fencingToken();
            LockLease write = this.billing.getReadWriteLock("shared-name").writeLock().acquire(Duration.ZERO);
            assertThat(write.fencingToken()).isGreaterThan(plainToken);
            LockInfo info = this.billing.inspect("shared-name");
            assertThat(info.mode()).isEqualTo(LockInfo.Mode.EXCLUSIVE);
            assertThat(info.fencingToken()).isEqualTo(plainToken);
            write.close();
        }
    }

    @Test
    void inspectionOfReadHoldsReportsOneReadersOwnerAndToken() throws Exception {
        ReadWriteRedisLock rw = this.orders.getReadWriteLock("readers");
        try (LockLease longer = rw.readLock().acquire(Duration.ZERO, Duration.ofSeconds(30));
                LockLease shorter = this.billing.getReadWriteLock("readers").readLock()
                    .acquire(Duration.ZERO, Duration.ofSeconds(10))) {
            assertThat(shorter.fencingToken()).isGreaterThan(longer.fencingToken());
            LockInfo info = this.billing.inspect("readers");
            assertThat(info.mode()).isEqualTo(LockInfo.Mode.READ);
            assertThat(info.ownerInstanceId()).isEqualTo("orders@host-a:1");
            assertThat(info.fencingToken()).isEqualTo(longer.fencingToken());
        }
    }

    @Test
    void inspectionOfAnInvalidNameSendsNothing() {
        assertThatIllegalArgumentException().isThrownBy(() -> this.orders.inspect(" "));
    }

    @Test
    void invalidInstanceIdsAreRejectedWithTheReason() {
        assertThatIllegalArgumentException().isThrownBy(() -> LockClientOptions.builder().instanceId("my app").build())
            .withMessageContaining("whitespace");
        assertThatIllegalArgumentException().isThrownBy(() -> LockClientOptions.builder().instanceId("a|b").build())
            .withMessageContaining("'|'");
    }
}
