package dev.distlock.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The hot-path budget: counts commands Redis executed (INFO commandstats), not time. */
class RoundTripBudgetTests extends RedisLockTest {

    @Test
    void uncontendedAcquireAndReleaseCostTwoCommandsAndReentryOne() throws Exception {
        // A long watchdog lease keeps renewals out of the count.
        RedisLockClient client = this.clients.create(LockClientOptions.builder()
            .watchdogLease(Duration.ofMinutes(1)).build());
        RedisLock lock = client.getLock("budget");
        lock.tryAcquire().orElseThrow().close();
        this.raw.configResetstat();

        LockLease lease = lock.acquire(Duration.ofSeconds(1));
        assertThat(commandCalls()).isEqualTo(1);
        LockLease nested = lock.acquire(Duration.ofSeconds(1));
        assertThat(commandCalls()).isEqualTo(2);
        nested.close();
        assertThat(commandCalls()).as("closing a nested lease is local").isEqualTo(2);
        lease.close();
        assertThat(commandCalls()).isEqualTo(3);
    }

    @Test
    void uncontendedAcquireAndReleaseRunFourCommandsInsideRedis() throws Exception {
        RedisLockClient client = this.clients.create(LockClientOptions.builder()
            .watchdogLease(Duration.ofMinutes(1)).build());
        RedisLock lock = client.getLock("inner-budget");
        lock.tryAcquire().orElseThrow().close();
        boolean deletesIfEqual = serverDeletesIfEqual();
        this.raw.configResetstat();

        lock.tryAcquire().orElseThrow().close();

        assertThat(calls("set"::equals)).as("the acquire: SET NX PX GET, a plain command").isOne();
        if (deletesIfEqual) {
            assertThat(allCommandCalls()).as("acquire: SET NX PX GET (the token is minted on request); release: "
                    + "DELIFEQ or DELEX (a waiter would have changed the hold)").isEqualTo(2);
        }
        else {
            assertThat(allCommandCalls()).as("acquire: SET NX PX GET (the token is minted on request); release: 1 "
                    + "script, GET, DEL (a compare-and-delete: a waiter would have changed the hold)").isEqualTo(4);
        }
        assertThat(calls("lpop"::equals)).as("the release looks at no queue").isZero();
    }

    @Test
    void theFairLocksUncontendedAcquireLooksAtTheQueueInOneScript() throws Exception {
        RedisLockClient client = this.clients.create(LockClientOptions.builder()
            .watchdogLease(Duration.ofMinutes(1)).build());
        RedisLock lock = client.getFairLock("fair-budget");
        lock.tryAcquire().orElseThrow().close();
        boolean deletesIfEqual = serverDeletesIfEqual();
        this.raw.configResetstat();

        lock.tryAcquire().orElseThrow().close();

        assertThat(calls("exists"::equals)).as("one EXISTS sees the tombstone and the queue").isOne();
        assertThat(allCommandCalls()).as("acquire: 1 script, EXISTS, SET NX PX; release as the reentrant lock's")
            .isEqualTo(deletesIfEqual ? 4 : 6);
    }

    @ParameterizedTest(name = "fair = {0}")
    @ValueSource(booleans = { false, true })
    void aReleaseWithAWaiterOfItsOwnClientQueuedHandsOverInOneRoundTrip(boolean fair) throws Exception {
        RedisLockClient client = this.clients.create(LockClientOptions.builder()
            .watchdogLease(Duration.ofMinutes(1)).build());
        String name = fair ? "local-handoff-fair" : "local-handoff";
        RedisLock lock = fair ? client.getFairLock(name) : client.getLock(name);
        LockLease held = lock.acquire(Duration.ofSeconds(1));
        assertThat(this.raw.get("lock:{" + name + "}")).as("taken with the token left to the holder's request")
            .endsWith("|");
        CompletableFuture<LockLease> waiting = lock.acquireAsync(Duration.ofSeconds(20)).toCompletableFuture();
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (this.raw.llen("lock:{" + name + "}:queue") == 0 && System.nanoTime() - until < 0) {
            Thread.sleep(5);
        }
        // The waiter's client records where it stands right after the queueing reply; give it ample time.
        Thread.sleep(200);
        this.raw.configResetstat();

        held.close();
        try (LockLease handedOver = waiting.get(10, TimeUnit.SECONDS)) {
            assertThat(calls((command) -> command.equals("delifeq") || command.equals("delex")))
                .as("no compare-and-delete first: it would miss the hold the waiter changed").isZero();
            assertThat(calls((command) -> command.equals("evalsha") || command.equals("eval")))
                .as("the release: one script, which hands over (the waiter runs on its offer at once and "
                    + "confirms it later, with its lease)").isOne();
            assertThat(handedOver.isHeld()).isTrue();
        }
    }

    @Test
    void askingForTheTokenCostsOneScriptOfFourCommandsOnce() throws Exception {
        RedisLockClient client = this.clients.create(LockClientOptions.builder()
            .watchdogLease(Duration.ofMinutes(1)).build());
        RedisLock lock = client.getLock("token-budget");
        try (LockLease lease = lock.tryAcquire().orElseThrow()) {
            this.raw.configResetstat();
            long token = lease.fencingToken();
            assertThat(lease.fencingToken()).as("asked again: known").isEqualTo(token);
            assertThat(allCommandCalls()).as("1 script: GET (owner check), TIME, SET GET (the fence, floored at the "
                    + "clock), SET XX KEEPTTL (the token into the hold)").isEqualTo(5);
        }
    }

    @Test
    void anAsynchronousAcquisitionMintsItsTokenWithTheGrant() throws Exception {
        RedisLockClient client = this.clients.create(LockClientOptions.builder()
            .watchdogLease(Duration.ofMinutes(1)).build());
        RedisLock lock = client.getLock("async-token-budget");
        try (LockLease lease = lock.acquireAsync(Duration.ZERO).toCompletableFuture().get(10, TimeUnit.SECONDS)) {
            this.raw.configResetstat();
            assertThat(lease.fencingToken()).isPositive();
            assertThat(allCommandCalls()).as("asking costs no call: an async caller must not block").isZero();
        }
    }

    @Test
    void aClientLooksAgainOnlyAtItsLatestOfferOfALock() throws Exception {
        Duration offer = Duration.ofSeconds(3);
        RedisLock holder = this.clients.create(LockClientOptions.builder()
            .watchdogLease(Duration.ofMinutes(1)).build()).getLock("offers");
        RedisLock waiter = this.clients.create(LockClientOptions.builder()
            .watchdogLease(Duration.ofMinutes(1)).handoffOffer(offer).build()).getLock("offers");
        int offers = 6;
        for (int i = 0; i < offers; i++) {
            LockLease held = holder.acquire(Duration.ofSeconds(10));
            CompletableFuture<LockLease> waiting = waiter.acquireAsync(Duration.ofSeconds(10)).toCompletableFuture();
            long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (this.raw.llen("lock:{offers}:queue") == 0 && System.nanoTime() - until < 0) {
                Thread.sleep(5);
            }
            held.close();
            waiting.get(10, TimeUnit.SECONDS).close();
        }
        // Every offer was confirmed at once. The holder looks again an offer time after a release: count those looks.
        this.raw.configResetstat();
        Thread.sleep(offer.toMillis() + 1_000);

        // A look is one EXISTS; finding the key gone (the waiter released it since), it runs a 'pass' of the release
        // script, whose own EXISTS is the only other one.
        long looks = calls("exists"::equals) - calls("evalsha"::equals);
        assertThat(looks).as("only the latest of %d offers is looked at again: a later release of the key means the "
                + "earlier offer was settled", offers).isEqualTo(1);
    }

    /** Every command Redis ran since the last reset, scripts' inner calls included (not the test's own INFO and CONFIG). */
    private long allCommandCalls() {
        return calls((command) -> !command.equals("info") && !command.startsWith("config"));
    }

    /**
     * Top-level commands the lock client sent since the last reset. Commands a script runs inside Redis are counted
     * by commandstats too, but they cost no round trip, so only script invocations and the plain commands a client
     * sends (the uncontended acquire's SET NX, SUBSCRIBE, PTTL; DELIFEQ on Valkey 9, DELEX on Redis 8.4) are summed;
     * the scripts of these cycles run neither SET nor PTTL.
     */
    private long commandCalls() {
        return calls((command) -> command.equals("evalsha") || command.equals("eval") || command.equals("subscribe")
                || command.equals("pttl") || command.equals("delifeq") || command.equals("delex")
                || command.equals("set"));
    }

    /** Valkey 9 and Redis 8.4 and later: the uncontended release is the server's own command instead of a script. */
    private boolean serverDeletesIfEqual() {
        return HandoffTests.serverCompareAndDelete(this.raw) != null;
    }

    private long calls(Predicate<String> counted) {
        Matcher matcher = Pattern.compile("cmdstat_([a-z|]+):calls=(\\d+)").matcher(this.raw.info("commandstats"));
        long calls = 0;
        while (matcher.find()) {
            if (counted.test(matcher.group(1))) {
                calls += Long.parseLong(matcher.group(2));
            }
        }
        return calls;
    }
}
