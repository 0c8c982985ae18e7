package dev.distlock.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
        // A fixed lease: no renewals, so every script call Redis counts below is one of the waiter's checks.
        LockLease dead = this.clients.create().getLock("passed").acquire(Duration.ZERO, Duration.ofMinutes(1));
        RedisLock latecomerLock = this.clients.create().getLock("passed");
        CompletableFuture<LockLease> waiting = queueWaiter("passed", Duration.ofSeconds(2));
        // Right after one of the waiter's checks (the next is at least 1 s away), as if the holder's lease ran out:
        // the key is gone, nobody was told, the waiter is still queued; and a newcomer's plain SET NX takes it.
        this.raw.configResetstat();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(2)).until(() -> scriptCalls() > 0);
        this.raw.del("lock:{passed}");
        LockLease latecomer = latecomerLock.tryAcquire().orElseThrow();
        assertThat(this.raw.get("lock:{passed}")).as("taken by a plain SET NX").endsWith("|");

        await().atMost(Duration.ofSeconds(10)).until(() -> !this.raw.get("lock:{passed}").endsWith("|"));
        assertThat(waiting).as("the waiter's next check found the lock held and minted its token").isNotDone();
        latecomer.close();
        try (LockLease lease = waiting.get(10, TimeUnit.SECONDS)) {
            assertThat(lease.isHeld()).as("handed over by the latecomer's release").isTrue();
        }
        assertThatExceptionOfType(LockLostException.class).isThrownBy(dead::close);
    }

    @Test
    void aQueuedWaitersCheckRemovesAGhostAndTakesTheLock() throws Exception {
        LockLease held = this.clients.create().getLock("ghost-queued").acquire(Duration.ZERO);
        CompletableFuture<LockLease> waiting = queueWaiter("ghost-queued", Duration.ofMillis(100));
        // The holder's lease ran out, and an abandoned plain take of another client was replayed at once: one write,
        // so that no check of the waiter's finds the lock free in between.
        plantGhost("ghost-queued");

        try (LockLease lease = waiting.get(10, TimeUnit.SECONDS)) {
            assertThat(this.raw.get("lock:{ghost-queued}")).doesNotStartWith(GHOST);
        }
        assertThatExceptionOfType(LockLostException.class).isThrownBy(held::close);
    }

    /** A waiter of another client, checking on its place every {@code maxBackoff}, queued behind the lock's holder. */
    private CompletableFuture<LockLease> queueWaiter(String name, Duration maxBackoff) {
        RedisLockClient waiterClient = this.clients.create(LockClientOptions.builder().maxBackoff(maxBackoff).build());
        CompletableFuture<LockLease> waiting = waiterClient.getLock(name).acquireAsync(Duration.ofSeconds(30))
            .toCompletableFuture();
        await().atMost(Duration.ofSeconds(10)).until(() -> this.raw.llen("lock:{" + name + "}:queue") == 1);
        return waiting;
    }

    private long scriptCalls() {
        Matcher calls = Pattern.compile("cmdstat_evalsha:calls=(\\d+)")
            .matcher(this.raw.info("commandstats"));
        return calls.find() ? Long.parseLong(calls.group(1)) : 0;
    }

    /**
     * What a plain take replayed after its client abandoned it leaves: the owner's tombstone (written by the abandon,
     * so first) and the unminted hold.
     */
    private void plantGhost(String name) {
        String lockKey = "lock:{" + name + "}";
        this.raw.set(lockKey + ":abandoned:" + GHOST, "1", SetArgs.Builder.px(60_000));
        this.raw.set(lockKey, GHOST + "|", SetArgs.Builder.px(60_000));
    }
}
