package dev.distlock.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.distlock.testsupport.FaultProxy;
import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A waiter that hears its offer soon after it queued runs at once, on the offer's own validity (the offer expires an
 * offer time after the release, which came after the waiter started). It confirms the offer only once half of that
 * validity has passed: the confirmation then extends it to the full lease, or, refused, makes the lease lost; a holder
 * done before never sends it.
 */
class HandoffBeforeConfirmationTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    /** Every reply to the waiter's client is held this long: its confirmation is answered well after its offer. */
    private static final Duration REPLY_DELAY = Duration.ofMillis(1000);

    private static final Duration LEASE = Duration.ofSeconds(30);

    /** The waiter's offer: long, so that even a slow start leaves it the half it needs to run before confirming. */
    private static final Duration OFFER = Duration.ofSeconds(10);

    private LockClients clients;

    private LockClients proxied;

    private FaultProxy proxy;

    private RedisCommands<String, String> raw;

    @BeforeEach
    void setUp() {
        redis.flushAll();
        this.proxy = FaultProxy.start(redis.server());
        this.clients = new LockClients(redis.uri());
        this.proxied = new LockClients(this.proxy.uri());
        this.raw = this.clients.raw();
    }

    @AfterEach
    void tearDown() {
        this.proxied.close();
        this.clients.close();
        this.proxy.close();
    }

    @Test
    void theWaiterRunsOnTheOfferUntilItsConfirmationExtendsItToTheLease() throws Exception {
        LockLease held = this.clients.create().getLock("early").acquire(Duration.ZERO);
        CompletableFuture<LockLease> waiting = waiter().getLock("early").acquireAsync(Duration.ofSeconds(20))
            .toCompletableFuture();
        awaitQueued("early");
        this.proxy.delay(FaultProxy.Direction.REPLIES, REPLY_DELAY, Duration.ZERO);
        held.close();

        LockLease lease = waiting.get(20, TimeUnit.SECONDS);
        assertThat(lease.isHeld()).isTrue();
        assertThat(lease.remainingValidity()).as("running on the offer, its confirmation not yet answered")
            .isLessThanOrEqualTo(OFFER);
        await().atMost(Duration.ofSeconds(15))
            .until(() -> lease.remainingValidity().compareTo(Duration.ofSeconds(20)) > 0);
        assertThat(this.raw.pttl("lock:{early}")).as("the key's expiry covers the validity")
            .isGreaterThan(lease.remainingValidity().toMillis());
        this.proxy.delay(FaultProxy.Direction.REPLIES, Duration.ZERO, Duration.ZERO);
        lease.close();
    }

    @Test
    void aRefusedConfirmationMakesTheLeaseLost() throws Exception {
        LockLease held = this.clients.create().getLock("refused").acquire(Duration.ZERO);
        CompletableFuture<LockLease> waiting = waiter().getLock("refused").acquireAsync(Duration.ofSeconds(20))
            .toCompletableFuture();
        awaitQueued("refused");
        // The waiter's confirmation reaches Redis late: by then the key is gone (as if force-released).
        this.proxy.delay(FaultProxy.Direction.REQUESTS, REPLY_DELAY, Duration.ZERO);
        held.close();
        LockLease lease = waiting.get(20, TimeUnit.SECONDS);
        CompletableFuture<LeaseLoss> lost = new CompletableFuture<>();
        lease.addLossListener(lost::complete);
        this.raw.del("lock:{refused}");

        assertThat(lost.get(15, TimeUnit.SECONDS).reason()).isEqualTo(LeaseLoss.Reason.RENEWAL_REFUSED);
        assertThat(lease.isHeld()).isFalse();
    }

    @Test
    void aHolderDoneWithinHalfItsOfferNeverConfirmsIt() throws Exception {
        Duration offer = Duration.ofSeconds(6);
        LockLease held = this.clients.create().getLock("quick").acquire(Duration.ZERO);
        CompletableFuture<LockLease> waiting = this.clients.create(LockClientOptions.builder().watchdogLease(LEASE)
            .handoffOffer(offer).build()).getLock("quick").acquireAsync(Duration.ofSeconds(20)).toCompletableFuture();
        awaitQueued("quick");
        held.close();
        LockLease lease = waiting.get(20, TimeUnit.SECONDS);
        assertThat(this.raw.pttl("lock:{quick}")).as("the key still expires with the offer")
            .isLessThanOrEqualTo(offer.toMillis());
        this.raw.configResetstat();
        lease.close();
        // Past the confirmation's due time (half the validity left at the grant: about 3 s) and well before the first
        // holder's client looks again at its offer (an offer time after its release).
        Thread.sleep(4_000);

        assertThat(this.raw.info("commandstats")).as("one script ran since: the release, and no confirmation")
            .contains("cmdstat_evalsha:calls=1,")
            .doesNotContain("cmdstat_pexpire");
    }

    @Test
    void anEndTheHolderMovedBeforeItsConfirmationWasDueIsKept() throws Exception {
        Duration offer = Duration.ofSeconds(4);
        LockLease held = this.clients.create().getLock("moved").acquire(Duration.ZERO);
        CompletableFuture<LockLease> waiting = this.clients.create(LockClientOptions.builder().handoffOffer(offer)
            .build()).getLock("moved").acquireAsync(Duration.ofSeconds(20), LEASE).toCompletableFuture();
        awaitQueued("moved");
        held.close();
        LockLease lease = waiting.get(20, TimeUnit.SECONDS);
        lease.expireIn(Duration.ofSeconds(90));
        // Past the confirmation's due time (about 2 s): a confirmation sent now would set the key to the 30 s lease.
        Thread.sleep(3_500);

        assertThat(this.raw.pttl("lock:{moved}")).as("the key keeps the end the holder chose")
            .isGreaterThan(Duration.ofSeconds(80).toMillis());
        assertThat(lease.remainingValidity()).isGreaterThan(Duration.ofSeconds(80));
        lease.close();
    }

    @Test
    void aFixedLeaseCheckedBeforeItsConfirmationWasDueStillGetsItsWholeLease() throws Exception {
        // A fixed lease of 3 s with a 2 s offer: the watchdog checks ownership (without extending) after a quarter of
        // the lease, before the confirmation is due (about 1 s): that check must not stand in for the confirmation.
        Duration lease = Duration.ofSeconds(3);
        LockLease held = this.clients.create().getLock("fixed").acquire(Duration.ZERO);
        CompletableFuture<LockLease> waiting = this.clients.create(LockClientOptions.builder()
            .handoffOffer(Duration.ofSeconds(2)).build()).getLock("fixed").acquireAsync(Duration.ofSeconds(20), lease)
            .toCompletableFuture();
        awaitQueued("fixed");
        held.close();
        LockLease granted = waiting.get(20, TimeUnit.SECONDS);
        long grantedAt = System.nanoTime();
        // Past the offer's end, within the lease counted from the confirmation.
        Thread.sleep(2_400 - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - grantedAt));

        assertThat(granted.isHeld()).as("held for its lease, not only its offer").isTrue();
        assertThat(this.raw.pttl("lock:{fixed}")).isPositive();
        granted.close();
    }

    private RedisLockClient waiter() {
        return this.proxied.create(LockClientOptions.builder().watchdogLease(LEASE).handoffOffer(OFFER)
            .operationTimeout(Duration.ofSeconds(10)).build());
    }

    private void awaitQueued(String name) {
        await().atMost(Duration.ofSeconds(10)).until(() -> this.raw.llen("lock:{" + name + "}:queue") == 1);
    }
}
