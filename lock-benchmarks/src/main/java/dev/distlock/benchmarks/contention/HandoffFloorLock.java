package dev.distlock.benchmarks.contention;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import dev.distlock.core.internal.redis.LuaScript;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.jspecify.annotations.Nullable;

/**
 * The floor under distlock's handoff: the Redis side of a contended grant from a bare client, no library code. A
 * refused caller queues in the same script call that found the lock taken, then waits for the announcement on its
 * client's wake channel, completed on the pub/sub connection's thread. Release is distlock's own {@code unlock.lua}
 * (GET, LPOP, PUBSUB NUMSUB, SET of the next hold, PUBLISH to its client), so the release call runs exactly the
 * script distlock's does. No lease tracking, watchdog, timeouts, fencing or offer confirmation (the offer is the whole
 * lease): used only in the handoff breakdown.
 *
 * <p>Its ratio to the baseline is what handing over in the release script costs whatever the client does (a longer
 * script, and a second process woken at the release); distlock's ratio to it is what the client side costs on top.
 */
final class HandoffFloorLock implements LockClient {

    static final LockSubject SUBJECT = LockSubject.of("handoff floor", false, HandoffFloorLock::new);

    /** Takes a free lock ({@code 1}) or queues the caller's entry {@code owner|offer-|channel} ({@code 0}). */
    private static final String TAKE_OR_QUEUE = """
            if redis.call('set', KEYS[1], ARGV[1] .. '|-', 'nx', 'px', ARGV[2]) then return 1 end
            redis.call('rpush', KEYS[2], ARGV[1] .. '|' .. ARGV[2] .. '-|' .. ARGV[3])
            return 0
            """;

    private static final String LEASE_MILLIS = "30000";

    private final RedisClient client;

    private final StatefulRedisConnection<String, String> connection;

    private final RedisCommands<String, String> commands;

    private final StatefulRedisPubSubConnection<String, String> subscriber;

    private final SyncScript takeOrQueue;

    private final SyncScript unlock;

    private final String clientId = Long.toHexString(ThreadLocalRandom.current().nextLong());

    private final AtomicLong tokens = new AtomicLong();

    /** Wake channels this client listens on; a caller queues only once its channel's subscription is confirmed. */
    private final Map<String, Boolean> subscribed = new ConcurrentHashMap<>();

    /** Waiters of this client by owner, completed when an announcement hands them the lock. */
    private final Map<String, CompletableFuture<Void>> handed = new ConcurrentHashMap<>();

    private HandoffFloorLock(RedisURI uri) {
        this.client = RedisClient.create(uri);
        this.connection = this.client.connect();
        this.commands = this.connection.sync();
        this.subscriber = this.client.connectPubSub();
        this.subscriber.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String hold) {
                CompletableFuture<Void> waiter = HandoffFloorLock.this.handed.remove(hold.substring(0,
                        hold.lastIndexOf('|')));
                if (waiter != null) {
                    waiter.complete(null);
                }
            }
        });
        this.takeOrQueue = SyncScript.load(this.commands, TAKE_OR_QUEUE);
        this.unlock = SyncScript.load(this.commands, LuaScript.UNLOCK.body());
    }

    @Override
    public @Nullable Held tryAcquire(String key, Duration wait) throws InterruptedException {
        String owner = this.clientId + ":" + this.tokens.incrementAndGet();
        String lock = "floor:{" + key + "}";
        String queue = lock + ":q";
        String channel = lock + ":h:" + this.clientId;
        this.subscribed.computeIfAbsent(channel, (name) -> {
            this.subscriber.sync().subscribe(name);
            return Boolean.TRUE;
        });
        CompletableFuture<Void> turn = new CompletableFuture<>();
        this.handed.put(owner, turn);
        Long taken = this.takeOrQueue.run(this.commands, ScriptOutputType.INTEGER, new String[] { lock, queue },
                owner, LEASE_MILLIS, channel);
        boolean held = taken == 1L
                || handedOver(turn, wait, lock, queue, owner, owner + "|" + LEASE_MILLIS + "-|" + channel);
        this.handed.remove(owner);
        if (!held) {
            return null;
        }
        return () -> this.unlock.run(this.commands, ScriptOutputType.MULTI,
                new String[] { lock, queue, lock + ":fence" }, owner, "0", "publish", "1");
    }

    /**
     * Waits for the announcement; at the wait's end, leaves the queue, and holds the lock only if the entry was popped
     * by a release that handed it over (a release skips an entry whose client does not listen).
     */
    private boolean handedOver(CompletableFuture<Void> turn, Duration wait, String lock, String queue, String owner,
            String entry) throws InterruptedException {
        try {
            turn.get(wait.toNanos(), TimeUnit.NANOSECONDS);
            return true;
        }
        catch (TimeoutException ex) {
            // Popped: handed over (the lock holds our hold, set by the release that popped it) or skipped.
            return this.commands.lrem(queue, 1, entry) == 0 && (owner + "|-").equals(this.commands.get(lock));
        }
        catch (ExecutionException ex) {
            throw new IllegalStateException("handoff floor: the wait failed", ex.getCause());
        }
    }

    @Override
    public void close() {
        this.subscriber.close();
        this.connection.close();
        this.client.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
