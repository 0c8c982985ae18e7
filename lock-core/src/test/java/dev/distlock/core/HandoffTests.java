package dev.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The queued lock hands a released lock straight to the next live waiter, in arrival order, with no barging. */
class HandoffTests extends RedisLockTest {

    private final ExecutorService pool = Executors.newCachedThreadPool();

    @BeforeEach
    void setUp(RedisCommands<String, String> raw) {
    }

    @AfterEach
    void tearDown() throws Exception {
        this.pool.shutdownNow();
        assertThat(this.pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void releaseHandsTheLockToTheQueuedWaiterWhichHoldsItWithoutAnotherCall() throws Exception {
        RedisLockClient holder = this.clients.create();
        RedisLockClient waiter = this.clients.create();
        // Fixed leases: no watchdog renewal in the counts.
        LockLease held = holder.getLock("handoff").acquire(Duration.ZERO, Duration.ofSeconds(60));
        long heldToken = held.fencingToken();
        Future<LockLease> waited = this.pool.submit(
                () -> waiter.getLock("handoff").acquire(Duration.ofSeconds(20), Duration.ofSeconds(60)));
        await().atMost(Duration.ofSeconds(10)).until(() -> this.raw.llen("lock:{handoff}:queue") == 1);
        long scriptsBefore = scriptCalls();
        long acquiresBefore = acquireCalls();

        held.close();
        try (LockLease lease = waited.get(10, TimeUnit.SECONDS)) {
            // The release (1 call) offered the lock and the waiter runs on the offer: no acquire attempt, and no
            // confirmation, as the waiter is done within half of it. Its token is left to its request.
            assertThat(acquireCalls() - acquiresBefore).as("acquire attempts after the release").isZero();
            assertThat(scriptCalls() - scriptsBefore).as("script calls while the waiter holds").isEqualTo(1);
            assertThat(this.raw.get("lock:{handoff}")).as("the handed-over hold").endsWith("|-");
            assertThat(lease.fencingToken()).as("the waiter's token is newer than the holder's")
                .isGreaterThan(heldToken);
        }
        // Then one call to mint the token it asked for, and one for its release.
        assertThat(scriptCalls() - scriptsBefore).isEqualTo(3);
        assertThat(this.raw.exists("lock:{handoff}", "lock:{handoff}:queue")).isZero();
    }

    @Test
    void anOfferLastsNoLongerThanTheLeaseTheWaiterAskedFor() throws Exception {
        RedisLockClient holder = this.clients.create();
        // The offer would last 5 s; this waiter's fixed lease is 400 ms, so its offer may not outlast that.
        RedisLockClient waiter = this.clients.create(LockClientOptions.builder().handoffOffer(Duration.ofSeconds(5))
            .build());
        LockLease held = holder.getLock("short").acquire(Duration.ZERO, Duration.ofSeconds(60));
        // Its token minted, the hold is what a handover leaves: the waiter queues on acquire.lua's shortest path.
        held.fencingToken();
        Future<Long> waited = this.pool.submit(() -> {
            try (LockLease lease = waiter.getLock("short").acquire(Duration.ofSeconds(20), Duration.ofMillis(400))) {
                return this.raw.pttl("lock:{short}");
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> this.raw.llen("lock:{short}:queue") == 1);
        String entry = this.raw.lindex("lock:{short}:queue", 0);
        // '-': a blocking acquisition leaves the token of a hold handed over to it to its request.
        assertThat(entry.split("\\|")[1]).as("offer time in the queue entry %s", entry).isEqualTo("400-");

        held.close();

        assertThat(waited.get(10, TimeUnit.SECONDS)).as("the new holder's key expiry").isBetween(1L, 400L);
    }

    @Test
    void aWaiterQueuedBehindAnUncontendedHoldIsHandedItByThatHoldsRelease() throws Exception {
        RedisLockClient holder = this.clients.create();
        RedisLockClient waiter = this.clients.create();
        // Taken uncontended, its token never asked for: the hold is 'owner|', released by a compare-and-delete of
        // exactly that value, which looks at no queue.
        LockLease held = holder.getLock("taken").acquire(Duration.ZERO, Duration.ofSeconds(60));
        assertThat(this.raw.get("lock:{taken}")).endsWith("|");
        Future<Long> waited = this.pool.submit(() -> {
            try (LockLease lease = waiter.getLock("taken").acquire(Duration.ofSeconds(20), Duration.ofSeconds(60))) {
                return lease.fencingToken();
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> this.raw.llen("lock:{taken}:queue") == 1);
        String marked = this.raw.get("lock:{taken}");
        assertThat(marked).as("the waiter minted the holder's token into its hold").doesNotEndWith("|");
        long acquiresBefore = acquireCalls();
        long publishesBefore = commandCalls().getOrDefault("publish", 0L);

        held.close();
        long token = waited.get(10, TimeUnit.SECONDS);

        assertThat(commandCalls().getOrDefault("publish", 0L) - publishesBefore).as("handoffs announced").isOne();
        assertThat(acquireCalls() - acquiresBefore).as("acquire attempts after the release").isZero();
        assertThat(token).isGreaterThan(Long.parseLong(marked.substring(marked.lastIndexOf('|') + 1)));
        assertThat(this.raw.exists("lock:{taken}", "lock:{taken}:queue")).isZero();
    }

    @Test
    void anUncontendedReleaseIsOneCompareAndDeleteTheServersOwnWhereItHasOne() throws Exception {
        RedisLock lock = this.clients.create().getLock("compare-and-delete");
        // The first release probes for DELIFEQ (Valkey 9 and later), then DELEX (Redis 8.4 and later), on the side and
        // runs the script; the probe is answered before it, so later releases use what it learned.
        lock.acquire(Duration.ZERO).close();
        String command = serverCompareAndDelete(this.raw);
        this.raw.configResetstat();

        lock.acquire(Duration.ZERO).close();

        Map<String, Long> calls = commandCalls();
        assertThat(calls).as("the acquire is one plain SET NX").containsEntry("set", 1L);
        if (command != null) {
            assertThat(calls).as(command + " releases").containsEntry(command, 1L);
            assertThat(scriptCalls()).as("no script").isZero();
        }
        else {
            assertThat(calls).doesNotContainKeys("delifeq", "delex");
            assertThat(scriptCalls()).as("the release").isOne();
        }
        assertThat(calls).as("no queue looked at").doesNotContainKey("lpop");
        assertThat(this.raw.exists("lock:{compare-and-delete}")).isZero();
    }

    @Test
    void waitersFromManyClientsAreGrantedInArrivalOrder() throws Exception {
        RedisLockClient holder = this.clients.create();
        LockLease held = holder.getLock("order").acquire(Duration.ZERO);
        List<Integer> grants = new CopyOnWriteArrayList<>();
        List<Future<?>> waiters = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int index = i;
            RedisLockClient client = this.clients.create();
            waiters.add(this.pool.submit(() -> {
                try (LockLease lease = client.getLock("order").acquire(Duration.ofSeconds(30))) {
                    grants.add(index);
                }
                return null;
            }));
            long queued = i + 1;
            await().atMost(Duration.ofSeconds(10)).until(() -> this.raw.llen("lock:{order}:queue") == queued);
        }
        held.close();
        for (Future<?> waiter : waiters) {
            waiter.get(20, TimeUnit.SECONDS);
        }
        assertThat(grants).containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void theFairLockDoesNotBargeAheadOfALiveQueuedWaiter() throws Exception {
        // A free lock with a waiter queued: what the queue looks like right after a holder's lease ran out.
        RedisClient listenerClient = RedisClient.create(RedisURI.create(redis.uri()));
        try (StatefulRedisPubSubConnection<String, String> listener = listenerClient.connectPubSub()) {
            CompletableFuture<String> announced = new CompletableFuture<>();
            listener.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    announced.complete(message);
                }
            });
            listener.sync().subscribe("lock:{barge}:h:other");
            this.raw.rpush("lock:{barge}:queue", "other:1|30000|lock:{barge}:h:other");

            RedisLockClient latecomer = this.clients.create();
            assertThat(latecomer.getFairLock("barge").tryAcquire()).as("the latecomer must not take the lock")
                .isEmpty();

            assertThat(this.raw.get("lock:{barge}")).as("offered to the queued waiter").startsWith("other:1|");
            assertThat(announced.get(5, TimeUnit.SECONDS)).startsWith("other:1|");
            assertThat(this.raw.pttl("lock:{barge}")).isBetween(1L, 30_000L);
        }
        finally {
            listenerClient.shutdown();
        }
    }

    @Test
    void aQueuedWaiterWhoseClientNoLongerListensIsSkipped() throws Exception {
        RedisLockClient holder = this.clients.create();
        RedisLockClient waiter = this.clients.create();
        LockLease held = holder.getLock("skip").acquire(Duration.ZERO);
        long heldToken = held.fencingToken();
        // A dead waiter: queued by a client that no longer listens (its process died).
        this.raw.rpush("lock:{skip}:queue", "dead:1|30000|lock:{skip}:h:dead");
        Future<Long> live = this.pool.submit(() -> {
            try (LockLease lease = waiter.getLock("skip").acquire(Duration.ofSeconds(20))) {
                return lease.fencingToken();
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> this.raw.llen("lock:{skip}:queue") == 2);

        held.close();

        assertThat(live.get(5, TimeUnit.SECONDS)).isGreaterThan(heldToken);
        assertThat(this.raw.exists("lock:{skip}", "lock:{skip}:queue")).isZero();
    }

    @Test
    void anOfferToAnOwnerItsClientNoLongerWaitsForIsReleasedByThatClientAtOnce() throws Exception {
        RedisLockClient holder = this.clients.create();
        RedisLockClient waiterClient = this.clients.create();
        RedisLockClient laterClient = this.clients.create();
        LockLease held = holder.getLock("gone").acquire(Duration.ZERO, Duration.ofSeconds(60));
        long heldToken = held.fencingToken();
        CompletableFuture<LockLease> first = waiterClient.getLock("gone")
            .acquireAsync(Duration.ofSeconds(20), Duration.ofSeconds(60))
            .toCompletableFuture();
        await().atMost(Duration.ofSeconds(10)).until(() -> this.raw.llen("lock:{gone}:queue") == 1);
        String channel = this.raw.pubsubChannels("lock:{gone}:h:*").get(0);
        // Then a replay of an acquisition that client abandoned (the tombstone is there), run after the abandon: it
        // queues behind the held lock on the client's wake channel, with an offer that would only lapse after 30 s.
        this.raw.set("lock:{gone}:abandoned:ghost:1", "1", io.lettuce.core.SetArgs.Builder.px(60_000));
        List<Object> replay = this.raw.eval(dev.distlock.core.internal.redis.LuaScript.ACQUIRE.body(),
                io.lettuce.core.ScriptOutputType.MULTI,
                new String[] { "lock:{gone}", "lock:{gone}:fence", "lock:{gone}:queue",
                        "lock:{gone}:abandoned:ghost:1" },
                new dev.distlock.core.internal.scripts.AcquireArgs("ghost:1", 60_000, 86_400_000, 30_000, channel,
                        "publish", true, "", dev.distlock.core.internal.scripts.AcquireArgs.offer(30_000, 60_000,
                                false)).argv());
        assertThat(replay.get(0)).as("refused").isEqualTo(0L);
        assertThat(replay.get(2)).as("queued behind the holder").asString().startsWith("ghost:1|");
        CompletableFuture<LockLease> later = laterClient.getLock("gone")
            .acquireAsync(Duration.ofSeconds(20), Duration.ofSeconds(60))
            .toCompletableFuture();
        await().atMost(Duration.ofSeconds(10)).until(() -> this.raw.llen("lock:{gone}:queue") == 3);

        held.close();
        long firstToken;
        try (LockLease lease = first.get(10, TimeUnit.SECONDS)) {
            firstToken = lease.fencingToken();
            assertThat(firstToken).isGreaterThan(heldToken);
        }

        // Offered next, the abandoned owner's hold is released by the client that heard it, owner-checked: the live
        // waiter behind it holds the lock long before that offer could lapse.
        try (LockLease lease = later.get(10, TimeUnit.SECONDS)) {
            assertThat(lease.fencingToken()).isGreaterThan(firstToken);
            assertThat(this.raw.get("lock:{gone}")).doesNotStartWith("ghost:1|");
        }
    }

    @Test
    void anOfferTheWaiterNeverConfirmsPassesToTheNextLiveWaiter() throws Exception {
        RedisLockClient holder = this.clients.create();
        // A long back-off: this waiter, second in the queue, checks on its place no sooner than 8 s after queueing.
        RedisLockClient waiter = this.clients.create(LockClientOptions.builder().maxBackoff(Duration.ofSeconds(4))
            .build());
        LockLease held = holder.getLock("frozen").acquire(Duration.ZERO, Duration.ofSeconds(60));
        long heldToken = held.fencingToken();
        // A frozen waiter: its client still listens (the announcement counts a receiver), but it never confirms.
        RedisClient frozenClient = RedisClient.create(RedisURI.create(redis.uri()));
        try (StatefulRedisPubSubConnection<String, String> frozen = frozenClient.connectPubSub()) {
            frozen.sync().subscribe("lock:{frozen}:h:frozen");
            this.raw.rpush("lock:{frozen}:queue", "frozen:1|300|lock:{frozen}:h:frozen");
            Future<Long> live = this.pool.submit(() -> {
                try (LockLease lease = waiter.getLock("frozen").acquire(Duration.ofSeconds(30))) {
                    return lease.fencingToken();
                }
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> this.raw.llen("lock:{frozen}:queue") == 2);

            long releasedAt = System.nanoTime();
            held.close();
            assertThat(this.raw.get("lock:{frozen}")).as("offered to the frozen waiter first").startsWith("frozen:1|");

            long token = live.get(20, TimeUnit.SECONDS);
            assertThat(Duration.ofNanos(System.nanoTime() - releasedAt)).as("release to the live waiter's grant")
                .isLessThan(Duration.ofSeconds(4));
            assertThat(token).isGreaterThan(heldToken);
            assertThat(this.raw.exists("lock:{frozen}", "lock:{frozen}:queue")).isZero();
        }
        finally {
            frozenClient.shutdown();
        }
    }

    @Test
    void aHandedOverGrantHoldsTheFullLeaseOnceConfirmed() throws Exception {
        RedisLockClient holder = this.clients.create();
        RedisLockClient waiter = this.clients.create(LockClientOptions.builder().handoffOffer(Duration.ofMillis(500))
            .build());
        LockLease held = holder.getLock("confirmed").acquire(Duration.ZERO, Duration.ofSeconds(60));
        CompletableFuture<LockLease> waited = waiter.getLock("confirmed").acquireAsync(Duration.ofSeconds(20),
                Duration.ofSeconds(40)).toCompletableFuture();
        await().atMost(Duration.ofSeconds(10)).until(() -> this.raw.llen("lock:{confirmed}:queue") == 1);
        assertThat(this.raw.lindex("lock:{confirmed}:queue", 0)).as("the entry carries the offer time")
            .contains("|500|");

        held.close();
        try (LockLease lease = waited.get(10, TimeUnit.SECONDS)) {
            assertThat(this.raw.pttl("lock:{confirmed}")).as("confirmed: the full lease, not the offer")
                .isGreaterThan(30_000L);
            assertThat(this.raw.get("lock:{confirmed}")).endsWith("|" + lease.fencingToken());
        }
    }

    @Test
    void releaseWithNobodyQueuedPublishesNothing() throws Exception {
        RedisLockClient client = this.clients.create();
        this.raw.configResetstat();
        for (int i = 0; i < 10; i++) {
            client.getLock("quiet").acquire(Duration.ZERO).close();
        }
        assertThat(commandCalls().getOrDefault("publish", 0L)).isZero();
    }

    @Test
    void aWaiterThatGivesUpLeavesTheQueue() throws Exception {
        RedisLockClient holder = this.clients.create();
        RedisLockClient waiter = this.clients.create();
        try (LockLease held = holder.getLock("give-up").acquire(Duration.ZERO)) {
            assertThat(waiter.getLock("give-up").tryAcquire(Duration.ofMillis(800))).isEmpty();
            // The waiter leaves the queue right after giving up, without making its caller wait for that.
            await().atMost(Duration.ofSeconds(5)).until(() -> this.raw.exists("lock:{give-up}:queue") == 0);
        }
        assertThat(this.raw.exists("lock:{give-up}")).isZero();
    }

    @Test
    void notAcquiredNamesTheHoldersInstanceAndItsRemainingLease() throws Exception {
        RedisLockClient holder = this.clients.create(LockClientOptions.builder().instanceId("orders-7").build());
        RedisLockClient waiter = this.clients.create();
        try (LockLease held = holder.getLock("named").acquire(Duration.ZERO, Duration.ofSeconds(60))) {
            for (Duration wait : List.of(Duration.ZERO, Duration.ofMillis(300))) {
                LockNotAcquiredException refused = org.assertj.core.api.Assertions.catchThrowableOfType(
                        LockNotAcquiredException.class, () -> waiter.getLock("named").acquire(wait));
                assertThat(refused.holderInstanceId()).isEqualTo("orders-7");
                assertThat(refused.holderRemainingLease()).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(60));
                assertThat(refused.getMessage()).contains("orders-7");
            }
        }
    }

    /** The server's own compare-and-delete command (Valkey 9: delifeq, Redis 8.4: delex), or null without one. */
    static @org.jspecify.annotations.Nullable String serverCompareAndDelete(RedisCommands<String, String> raw) {
        for (String command : List.of("delifeq", "delex")) {
            if (raw.commandInfo(command).stream().anyMatch(java.util.Objects::nonNull)) {
                return command;
            }
        }
        return null;
    }

    private long scriptCalls() {
        Map<String, Long> calls = commandCalls();
        return calls.getOrDefault("evalsha", 0L) + calls.getOrDefault("eval", 0L);
    }

    /**
     * Acquire attempts: the acquire script reads the tombstone with EXISTS, or (a fresh attempt behind another owner's
     * hold) queues with RPUSH at once; nothing else runs either command.
     */
    private long acquireCalls() {
        Map<String, Long> calls = commandCalls();
        return calls.getOrDefault("exists", 0L) + calls.getOrDefault("rpush", 0L);
    }

    private Map<String, Long> commandCalls() {
        Matcher matcher = Pattern.compile("cmdstat_([a-z|]+):calls=(\\d+)").matcher(this.raw.info("commandstats"));
        Map<String, Long> calls = new java.util.HashMap<>();
        while (matcher.find()) {
            calls.put(matcher.group(1), Long.parseLong(matcher.group(2)));
        }
        return calls;
    }
}
