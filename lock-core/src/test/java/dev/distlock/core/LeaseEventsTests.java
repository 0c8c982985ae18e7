package dev.distlock.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** {@link RedisLockClient#heldLeases()} and {@link LockEventListener}: what an operator's tools see. */
class LeaseEventsTests extends RedisLockTest {

    private RedisLockClient client;

    private final List<String> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp(LockClients clients) {
        this.clients = clients;
        this.client = this.clients.create();
        this.raw = this.clients.raw();
        this.client.addEventListener(new LockEventListener() {
            @Override
            public void acquired(HeldLease lease) {
                LeaseEventsTests.this.events.add("acquired " + lease.name() + " " + lease.kind());
            }

            @Override
            public void released(HeldLease lease) {
                LeaseEventsTests.this.events.add("released " + lease.name());
            }

            @Override
            public void lost(HeldLease lease, LeaseLoss loss) {
                LeaseEventsTests.this.events.add("lost " + lease.name() + " " + loss.reason());
            }
        });
    }

    @Test
    void heldLeasesListWhatThisClientHoldsUntilReleased() throws Exception {
        RedisLock lock = this.client.getLock("listed");
        try (LockLease lease = lock.acquire(Duration.ZERO); LockLease nested = lock.acquire(Duration.ZERO)) {
            lease.fencingToken();
            await().atMost(Duration.ofSeconds(5)).until(() -> this.client.heldLeases().get(0).renewals() > 0);
            HeldLease held = this.client.heldLeases().get(0);
            assertThat(this.client.heldLeases()).hasSize(1);
            assertThat(held.name()).isEqualTo("listed");
            assertThat(held.kind()).isEqualTo("reentrant");
            assertThat(held.fencingToken()).isEqualTo(lease.fencingToken());
            assertThat(this.raw.get("lock:{listed}")).isEqualTo(held.owner() + "|" + held.fencingToken());
            assertThat(held.watchdogRenewed()).isTrue();
            assertThat(held.ownerThread()).isEqualTo(Thread.currentThread().getName());
            assertThat(held.heldFor()).isPositive();
            assertThat(held.remainingValidity()).isPositive();
        }
        assertThat(this.client.heldLeases()).isEmpty();
        assertThat(this.events).containsExactly("acquired listed reentrant", "released listed");
    }

    @Test
    void aLostLeaseIsReportedOnceAndLeavesTheList() throws Exception {
        LockLease lease = this.client.getLock("doomed").acquire(Duration.ZERO);
        this.raw.del("lock:{doomed}");
        await().atMost(Duration.ofSeconds(5)).until(() -> this.events.contains("lost doomed RENEWAL_REFUSED"));
        assertThat(this.client.heldLeases()).isEmpty();
        assertThatExceptionOfType(LockLostException.class).isThrownBy(lease::close);
        assertThat(this.events).containsExactly("acquired doomed reentrant", "lost doomed RENEWAL_REFUSED");
    }

    @Test
    void notAcquiredNamesTheHolderWhenKnown() {
        LockNotAcquiredException ex = new LockNotAcquiredException("busy", Duration.ofMillis(100), "orders@h:1",
                Duration.ofMillis(12_500));
        assertThat(ex).hasMessage("Lock 'busy' was not acquired within 100ms: another owner (instance orders@h:1,"
                + " 12.5s of its lease left) held it for the whole wait. Increase the wait time or handle the"
                + " contention.");
        assertThat(new LockNotAcquiredException("busy", Duration.ofSeconds(2)).getMessage())
            .contains("within 2s: another owner held it");
    }
}
