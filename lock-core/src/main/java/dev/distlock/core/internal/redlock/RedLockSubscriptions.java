package dev.distlock.core.internal.redlock;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

import dev.distlock.core.internal.redis.LuaScript;
import dev.distlock.core.internal.redis.RedisGateway;
import dev.distlock.core.internal.waiting.WaitRoom;
import io.lettuce.core.ScriptOutputType;
import io.netty.util.Timer;
import org.jspecify.annotations.Nullable;

/**
 * The gateway a RedLock client's engine waits through: it subscribes to an unlock channel on every node, so a release
 * (which publishes on every node where it deleted the key) wakes the waiters as long as one node's message arrives.
 * The copies of one release (its message is the released owner token, the same on every node) wake the waiters twice:
 * on the first copy, and again on the copy that shows a majority of nodes released it. A waiter woken by the first
 * copy can attempt before the other nodes released (and be refused by a majority); the majority's copy wakes it to
 * try again, where waking once would leave it to its back-off.
 *
 * <p>A subscription counts as made once a majority of nodes confirmed it, or after the node timeout: a down node must
 * not hold a waiter's first attempt back. Script calls are not made through here (the RedLock protocol calls each node
 * itself); they go to the first node, as the engine's gateway did before.
 */
final class RedLockSubscriptions implements RedisGateway {

    private final List<RedisGateway> nodes;

    private final long timeoutNanos;

    /** Per channel: the last release's message and how many nodes' copies of it arrived. */
    private final ConcurrentMap<String, Copies> lastMessage = new ConcurrentHashMap<>();

    private record Copies(String message, int count) {

        Copies next(String arrived) {
            return arrived.equals(this.message) ? new Copies(arrived, this.count + 1) : new Copies(arrived, 1);
        }
    }

    RedLockSubscriptions(List<RedisGateway> nodes, long timeoutNanos) {
        this.nodes = nodes;
        this.timeoutNanos = timeoutNanos;
    }

    @Override
    public <T> CompletableFuture<T> eval(LuaScript script, ScriptOutputType type, String[] keys, String... args) {
        return this.nodes.get(0).eval(script, type, keys, args);
    }

    @Override
    public <T> CompletableFuture<Acknowledged<T>> evalAcknowledged(LuaScript script, ScriptOutputType type,
            String[] keys, int replicas, long timeoutMillis, String... args) {
        throw new UnsupportedOperationException("RedLock does not wait for replicas: its nodes are independent masters");
    }

    @Override
    public Timer timer() {
        return this.nodes.get(0).timer();
    }

    @Override
    public CompletableFuture<Boolean> exists(String key) {
        return this.nodes.get(0).exists(key);
    }

    @Override
    public CompletableFuture<@Nullable String> setIfAbsent(String key, String value, long pxMillis) {
        throw new UnsupportedOperationException("RedLock takes its locks by script on every node");
    }

    @Override
    public CompletableFuture<Void> subscribe(String channel) {
        CompletableFuture<Void> made = new CompletableFuture<>();
        AtomicInteger confirmed = new AtomicInteger();
        AtomicInteger settled = new AtomicInteger();
        int quorum = this.nodes.size() / 2 + 1;
        for (RedisGateway node : this.nodes) {
            // Lettuce's own future is left alone (a timeout on it would cancel the SUBSCRIBE).
            node.subscribe(channel).whenComplete((ignored, ex) -> {
                int confirmations = (ex == null) ? confirmed.incrementAndGet() : confirmed.get();
                int answers = settled.incrementAndGet();
                if (confirmations >= quorum || answers == this.nodes.size()) {
                    made.complete(null);
                }
            });
        }
        return made.completeOnTimeout(null, this.timeoutNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public CompletableFuture<Void> unsubscribe(String channel) {
        this.lastMessage.remove(channel);
        CompletableFuture<?>[] replies = new CompletableFuture<?>[this.nodes.size()];
        for (int node = 0; node < replies.length; node++) {
            replies[node] = this.nodes.get(node).unsubscribe(channel);
        }
        return CompletableFuture.allOf(replies);
    }

    @Override
    public void onMessage(BiConsumer<String, String> listener) {
        int quorum = this.nodes.size() / 2 + 1;
        for (RedisGateway node : this.nodes) {
            node.onMessage((channel, message) -> {
                Copies copies = this.lastMessage.compute(channel,
                        (ignored, last) -> (last == null) ? new Copies(message, 1) : last.next(message));
                if (copies.count() == 1 || copies.count() == quorum) {
                    listener.accept(channel, WaitRoom.EVERYONE);
                }
            });
        }
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        for (RedisGateway node : this.nodes) {
            try {
                node.close();
            }
            catch (RuntimeException ex) {
                failure = (failure == null) ? ex : failure;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
