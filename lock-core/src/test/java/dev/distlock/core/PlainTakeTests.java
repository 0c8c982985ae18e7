package dev.distlock.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.SetArgs;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The reentrant lock takes a free lock with one plain {@code SET key owner| NX PX lease GET}, which looks at neither
 * the tombstone of an abandoned attempt nor the queue. What that leaves, and what makes it safe: a replay of such a
 * command after its client abandoned it (a ghost hold nobody holds) never keeps anyone from the lock, as every attempt
 * that finds an unminted hold asks its owner's tombstone and removes a ghost; and a free lock taken ahead of waiters
 * queued while nobody held it (a holder's lease ran out) is handed to them at its release, not kept from them.
 */
class PlainTakeTests extends RedisLockTest {

    private static final String GHOST = "instance:ghostclientid:1";

    @Test
    void aGhostHoldIsRemovedByTheNextBlockingAcquire() throws Exception {
        plantGhost("ghost");

        try (LockLease lease = this.clients.create().getLock("ghost").tryAcquire().orElseThrow()) {
            assertThat(lease.isHeld()).isTrue();
            assertThat(this.raw.get("lock:{ghost}")).doesNotStartWith(GHOST);
        }
        assertThat(this.raw.exists("lock:{ghost}")).isZero();
    }

    @Test
    void aGhostHoldIsRemovedByTheFairLocksAcquire() throws Exception {
        plantGhost("ghost-fair");

        try (LockLease lease = this.clients.create().getFairLock("ghost-fair").tryAcquire().orElseThrow()) {
            assertThat(this.raw.get("lock:{ghost-fair}")).doesNotStartWith(GHOST);
        }
    }

    @Test
    void aGhostHoldIsRemovedByAnAsynchronousAcquire() throws Exception {
        plantGhost("ghost-async");

        try (LockLease lease = this.clients.create().getLock("ghost-async").acquireAsync(Duration.ZERO)
            .toCompletableFuture().get(10, TimeUnit.SECONDS)) {
            assertThat(lease.fencingToken()).isPositive();
            assertThat(this.raw.get("lock:{ghost-async}")).doesNotStartWith(GHOST);
        }
    }

    @Test
    void anUnmintedHoldWithoutATombstoneIsALiveHoldersAndRefuses() throws Exception {
        RedisLock lock = this.clients.create().getLock("live");
        try (LockLease held = lock.tryAcquire().orElseThrow()) {
            assertThat(this.raw.get("lock:{live}")).endsWith("|");

            assertThat(this.clients.create().getLock("live").tryAcquire()).isEmpty();
            assertThat(this.clients.create().getFairLock("live").tryAcquire()).isEmpty();
            assertThat(held.isHeld()).isTrue();
        }
    }

    @Test
    void aMintedHoldRefusesThePlainTakeWithoutAScript() throws Exception {
        try (LockLease held = this.clients.create().getLock("minted").tryAcquire().orElseThrow()) {
            held.fencingToken();
            this.raw.configResetstat();

            assertThat(this.clients.create().getLock("minted").tryAcquire()).isEmpty();

            assertThat(this.raw.info("commandstats")).contains("cmdstat_set:calls=1,")
                .doesNotContain("cmdstat_evalsha").doesNotContain("cmdstat_eval:");
        }
    }

    @Test
    void aFreeLockTakenAheadOfAQueuedWaiterIsHandedToItAtTheRelease() throws Exception {
        LockLease dead = this.clients.create().getLock("passed").acquire(Duration.ZERO);
        // The waiter's checks come quickly, so that one finds the latecomer's hold while it is held.
        CompletableFuture<LockLease> waiting = queueQuickWaiter("passed");
        // As if the holder's lease ran out: the key is gone, nobody was told, the waiter is still queued.
        this.raw.del("lock:{passed}");

        LockLease latecomer = this.clients.create().getLock("passed").tryAcquire().orElseThrow();
        assertThat(this.raw.get("lock:{passed}")).as("taken by a plain SET NX").endsWith("|");
        await().atMost(Duration.ofSeconds(10)).until(() -> !this.raw.get("lock:{passed}").endsWith("|"));
        assertThat(waiting).as("the waiter's check found the lock held and minted its token").isNotDone();

        latecomer.close();
        try (LockLease lease = waiting.get(10, TimeUnit.SECONDS)) {
            assertThat(lease.isHeld()).as("handed over by the latecomer's release").isTrue();
        }
        assertThatExceptionOfType(LockLostException.class).isThrownBy(dead::close);
    }

    @Test
    void aQueuedWaitersCheckRemovesAGhostAndTakesTheLock() throws Exception {
        LockLease held = this.clients.create().getLock("ghost-queued").acquire(Duration.ZERO);
        CompletableFuture<LockLease> waiting = queueQuickWaiter("ghost-queued");
        // The holder's lease ran out, and then an abandoned plain take of another client was replayed.
        this.raw.del("lock:{ghost-queued}");
        plantGhost("ghost-queued");

        try (LockLease lease = waiting.get(10, TimeUnit.SECONDS)) {
            assertThat(this.raw.get("lock:{ghost-queued}")).doesNotStartWith(GHOST);
        }
        assertThatExceptionOfType(LockLostException.class).isThrownBy(held::close);
    }

    /** A waiter of another client, checking on its place every 100 ms, queued behind the lock's holder. */
    private CompletableFuture<LockLease> queueQuickWaiter(String name) {
        RedisLockClient waiterClient = this.clients.create(LockClientOptions.builder()
            .maxBackoff(Duration.ofMillis(100)).build());
        CompletableFuture<LockLease> waiting = waiterClient.getLock(name).acquireAsync(Duration.ofSeconds(30))
            .toCompletableFuture();
        await().atMost(Duration.ofSeconds(10)).until(() -> this.raw.llen("lock:{" + name + "}:queue") == 1);
        return waiting;
    }

    /** What a plain take replayed after its client abandoned it leaves: the unminted hold and the owner's tombstone. */
    private void plantGhost(String name) {
        String lockKey = "lock:{" + name + "}";
        this.raw.set(lockKey, GHOST + "|", SetArgs.Builder.px(60_000));
        this.raw.set(lockKey + ":abandoned:" + GHOST, "1", SetArgs.Builder.px(60_000));
    }
}
