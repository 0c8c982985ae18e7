package dev.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A blocking acquisition that finds the lock free, or is handed it while queued, leaves its fencing token to the
 * holder's first request: the mint is owner-checked, so tokens stay ordered like the holds themselves whenever they are
 * asked for, and a lease that is no longer the key's gets no token at all. Asynchronous callers get theirs with the
 * grant.
 */
class TokensOnRequestTests extends RedisLockTest {

    @RegisterExtension
    final KeptThreads threads = new KeptThreads();

    @Test
    void aLeaseThatLostItsKeyGetsNoTokenAndMintsNothing(LockClients clients, RedisCommands<String, String> raw)
            throws Exception {
        // A long lease: no renewal notices the deletion before the holder asks.
        RedisLock first = clients.create(LockClientOptions.builder().watchdogLease(Duration.ofMinutes(1)).build())
            .getLock("late-ask");
        LockLease stale = first.acquire(Duration.ZERO);
        raw.del("lock:{late-ask}");
        long successorToken;
        try (LockLease successor = clients.create().getLock("late-ask").acquire(Duration.ZERO)) {
            successorToken = successor.fencingToken();
            String counter = raw.get("lock:{late-ask}:fence");

            assertThatExceptionOfType(LockLostException.class).isThrownBy(stale::fencingToken)
                .withMessageContaining("late-ask")
                .withMessageContaining("no fencing token");
            assertThat(raw.get("lock:{late-ask}:fence")).as("nothing minted for the stale lease").isEqualTo(counter);
            assertThat(raw.get("lock:{late-ask}")).endsWith("|" + successorToken);
        }
        assertThat(successorToken).isPositive();
    }

    @Test
    void aLeaseThatEndedBeforeItsTokenWasAskedForHasTokenZero(LockClients clients) throws Exception {
        RedisLock lock = clients.create().getLock("ended");
        LockLease closed = lock.acquire(Duration.ZERO);
        closed.close();
        assertThat(closed.fencingToken()).isZero();
        try (LockLease next = lock.acquire(Duration.ZERO)) {
            assertThat(next.fencingToken()).isPositive();
        }
    }

    @Test
    void tokensFollowTheHoldsWhenAskedForLateAndWhenMintedWithTheGrant(LockClients clients) throws Exception {
        RedisLock blocking = clients.create().getLock("mixed");
        RedisLock async = clients.create().getLock("mixed");
        long highest = 0;
        for (int i = 0; i < 4; i++) {
            long token;
            if (i % 2 == 0) {
                try (LockLease lease = blocking.acquire(Duration.ofSeconds(5))) {
                    Thread.sleep(5);
                    token = lease.fencingToken();
                }
            }
            else {
                try (LockLease lease = async.acquireAsync(Duration.ofSeconds(5)).toCompletableFuture()
                    .get(10, TimeUnit.SECONDS)) {
                    token = lease.fencingToken();
                }
            }
            assertThat(token).as("grant %d", i).isGreaterThan(highest);
            highest = token;
        }
    }

    @Test
    void concurrentRequestsOfOneLeaseGetOneToken(LockClients clients, RedisCommands<String, String> raw)
            throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try (LockLease lease = clients.create().getLock("asked-at-once").acquire(Duration.ZERO)) {
            List<Future<Long>> asks = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                asks.add(threads.submit(lease::fencingToken));
            }
            long token = asks.get(0).get(10, TimeUnit.SECONDS);
            for (Future<Long> ask : asks) {
                assertThat(ask.get(10, TimeUnit.SECONDS)).isEqualTo(token);
            }
            assertThat(raw.get("lock:{asked-at-once}")).endsWith("|" + token);
            assertThat(clients.create().inspect("asked-at-once").fencingToken()).isEqualTo(token);
        }
        finally {
            threads.shutdownNow();
            assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aNestedLeaseSharesTheTokenWhoeverAsksFirst(LockClients clients) throws Exception {
        RedisLock lock = clients.create().getLock("nested-ask");
        try (LockLease outer = lock.acquire(Duration.ZERO); LockLease inner = lock.acquire(Duration.ZERO)) {
            long token = inner.fencingToken();
            assertThat(outer.fencingToken()).isEqualTo(token).isPositive();
        }
    }

    @Test
    void withFencingOffTheTokenIsZeroAndNothingIsWritten(LockClients clients, RedisCommands<String, String> raw)
            throws Exception {
        RedisLock lock = clients.create(LockClientOptions.builder().fencing(false).build()).getLock("unfenced");
        try (LockLease lease = lock.acquire(Duration.ZERO)) {
            assertThat(lease.fencingToken()).isZero();
        }
        assertThat(raw.keys("lock:{unfenced}*")).isEmpty();
    }

    @Test
    void aBlockingWaiterHandedTheLockMintsItsTokenWhenItAsks(LockClients clients, RedisCommands<String, String> raw)
            throws Exception {
        RedisLock holder = clients.create().getLock("handed");
        LockLease held = holder.acquire(Duration.ZERO);
        long heldToken = held.fencingToken();
        CompletableFuture<LockLease> waiting = acquireElsewhere(clients, "handed");
        awaitQueued(raw, "lock:{handed}:queue");
        held.close();
        try (LockLease next = waiting.get(20, TimeUnit.SECONDS)) {
            assertThat(raw.get("lock:{handed}")).as("handed over with its token left to its request").endsWith("|-");
            long token = next.fencingToken();
            assertThat(token).isGreaterThan(heldToken);
            assertThat(raw.get("lock:{handed}")).as("minted into the hold").endsWith("|" + token);
            assertThat(next.fencingToken()).as("asked again").isEqualTo(token);
            // Queued behind it, a waiter leaves the hold as it is: its holder releases with the handover script.
            CompletableFuture<LockLease> third = clients.create().getLock("handed").acquireAsync(Duration.ofSeconds(20))
                .toCompletableFuture();
            awaitQueued(raw, "lock:{handed}:queue");
            assertThat(raw.get("lock:{handed}")).endsWith("|" + token);
            next.close();
            try (LockLease last = third.get(20, TimeUnit.SECONDS)) {
                assertThat(last.fencingToken()).isGreaterThan(token);
            }
        }
    }

    @Test
    void aHandedOverHoldNobodyAskedTheTokenOfIsHandedOnByItsRelease(LockClients clients,
            RedisCommands<String, String> raw) throws Exception {
        RedisLock holder = clients.create().getLock("handed-on");
        LockLease held = holder.acquire(Duration.ZERO);
        long heldToken = held.fencingToken();
        CompletableFuture<LockLease> second = acquireElsewhere(clients, "handed-on");
        awaitQueued(raw, "lock:{handed-on}:queue");
        held.close();
        LockLease next = second.get(20, TimeUnit.SECONDS);
        assertThat(raw.get("lock:{handed-on}")).endsWith("|-");
        CompletableFuture<LockLease> third = clients.create().getLock("handed-on").acquireAsync(Duration.ofSeconds(20))
            .toCompletableFuture();
        awaitQueued(raw, "lock:{handed-on}:queue");
        assertThat(raw.get("lock:{handed-on}")).as("nobody queueing behind it mints it").endsWith("|-");

        next.close();

        try (LockLease last = third.get(20, TimeUnit.SECONDS)) {
            assertThat(last.fencingToken()).as("minted by the release for an asynchronous waiter")
                .isGreaterThan(heldToken);
            assertThat(raw.get("lock:{handed-on}")).endsWith("|" + last.fencingToken());
        }
    }

    /** A blocking acquisition of {@code name} (wait 20 s) on a thread of its own, by a client of its own. */
    private CompletableFuture<LockLease> acquireElsewhere(LockClients clients, String name) {
        RedisLock lock = clients.create().getLock(name);
        return this.threads.run("acquiring " + name, () -> lock.acquire(Duration.ofSeconds(20)));
    }

    private static void awaitQueued(RedisCommands<String, String> raw, String queueKey) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (raw.llen(queueKey) == 0 && System.nanoTime() - until < 0) {
            Thread.sleep(10);
        }
        assertThat(raw.llen(queueKey)).as("waiters queued on %s", queueKey).isOne();
    }

    @Test
    void theFirstWaiterMintsTheHoldersTokenWhichTheHolderGetsWhenItAsks(LockClients clients,
            RedisCommands<String, String> raw) throws Exception {
        long before;
        try (LockLease earlier = clients.create().getLock("minted-by-waiter").acquire(Duration.ZERO)) {
            before = earlier.fencingToken();
        }
        LockLease held = clients.create().getLock("minted-by-waiter").acquire(Duration.ZERO);
        CompletableFuture<LockLease> waiting = clients.create().getLock("minted-by-waiter")
            .acquireAsync(Duration.ofSeconds(30)).toCompletableFuture();
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (raw.llen("lock:{minted-by-waiter}:queue") == 0 && System.nanoTime() - until < 0) {
            Thread.sleep(10);
        }
        String hold = raw.get("lock:{minted-by-waiter}");

        long token = held.fencingToken();
        assertThat(hold).endsWith("|" + token);
        assertThat(raw.get("lock:{minted-by-waiter}")).as("asking minted nothing more").isEqualTo(hold);
        assertThat(token).isGreaterThan(before);
        held.close();
        try (LockLease next = waiting.get(20, TimeUnit.SECONDS)) {
            assertThat(next.fencingToken()).isGreaterThan(token);
        }
    }

    @Test
    void aFreeLockWithALiveWaiterQueuedGoesToTheWaiterNotToANewFairCaller(LockClients clients,
            RedisCommands<String, String> raw) throws Exception {
        LockLease held = clients.create().getLock("free-with-waiter").acquire(Duration.ZERO);
        CompletableFuture<LockLease> waiting = clients.create().getLock("free-with-waiter")
            .acquireAsync(Duration.ofSeconds(30)).toCompletableFuture();
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (raw.llen("lock:{free-with-waiter}:queue") == 0 && System.nanoTime() - until < 0) {
            Thread.sleep(10);
        }
        // As if the holder's lease ran out: the key is gone, nobody was told, the waiter is still queued.
        raw.del("lock:{free-with-waiter}");

        assertThat(clients.create().getFairLock("free-with-waiter").tryAcquire()).as("no barging").isEmpty();
        try (LockLease lease = waiting.get(20, TimeUnit.SECONDS)) {
            assertThat(lease.isHeld()).isTrue();
        }
        assertThatExceptionOfType(LockLostException.class).isThrownBy(held::close);
    }
}
