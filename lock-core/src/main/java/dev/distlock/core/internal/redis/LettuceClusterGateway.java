package dev.distlock.core.internal.redis;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.pubsub.RedisClusterPubSubAdapter;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.codec.StringCodec;

/**
 * {@link RedisGateway} over a Lettuce {@link RedisClusterClient}. Scripts are routed by the slot of their first key;
 * all keys of a lock share a hash tag, so no script crosses slots. Lettuce follows MOVED and ASK redirections and
 * refreshes the topology; a node that lost its script cache (failover, restart) answers NOSCRIPT and gets the script
 * again by {@code EVAL}; TRYAGAIN during a slot migration is retried. Release messages use regular pub/sub, which the
 * cluster bus delivers to every node.
 */
public final class LettuceClusterGateway implements RedisGateway {

    private static final int MAX_TRY_AGAIN = 100;

    private static final Executor TRY_AGAIN_DELAY = CompletableFuture.delayedExecutor(20, TimeUnit.MILLISECONDS);

    private final StatefulRedisClusterConnection<String, String> connection;

    private final RedisAdvancedClusterAsyncCommands<String, String> commands;

    private final StatefulRedisClusterPubSubConnection<String, String> pubSub;

    public LettuceClusterGateway(RedisClusterClient client) {
        this.connection = client.connect(StringCodec.UTF8);
        try {
            this.pubSub = client.connectPubSub(StringCodec.UTF8);
        }
        catch (RuntimeException ex) {
            this.connection.close();
            throw ex;
        }
        this.commands = this.connection.async();
    }

    @Override
    public <T> CompletableFuture<T> eval(LuaScript script, ScriptOutputType type, String[] keys, String... args) {
        return evalRetryingTryAgain(script, type, keys, args, 0);
    }

    /** Retries TRYAGAIN (slot migration in progress) every 20 ms; the caller's operation timeout bounds the total. */
    private <T> CompletableFuture<T> evalRetryingTryAgain(LuaScript script, ScriptOutputType type, String[] keys,
            String[] args, int attempt) {
        return ScriptCalls.<T>eval(this.commands, script, type, keys, args).exceptionallyCompose((ex) -> {
            if (!ScriptCalls.isTryAgain(ex) || attempt >= MAX_TRY_AGAIN) {
                return CompletableFuture.failedFuture(ex);
            }
            return CompletableFuture.runAsync(() -> { }, TRY_AGAIN_DELAY)
                .thenCompose((ignored) -> evalRetryingTryAgain(script, type, keys, args, attempt + 1));
        });
    }

    @Override
    public <T> CompletableFuture<Acknowledged<T>> evalAcknowledged(LuaScript script, ScriptOutputType type,
            String[] keys, int replicas, long timeoutMillis, String... args) {
        throw new UnsupportedOperationException("Replica acknowledgement (WAIT) is not supported on Redis Cluster "
                + "by this client yet; set replicaAcks to 0");
    }

    @Override
    public CompletableFuture<Boolean> exists(String key) {
        return this.commands.exists(key).toCompletableFuture().thenApply((count) -> count != null && count > 0);
    }

    @Override
    public CompletableFuture<Void> subscribe(String channel) {
        return this.pubSub.async().subscribe(channel).toCompletableFuture();
    }

    @Override
    public CompletableFuture<Void> unsubscribe(String channel) {
        return this.pubSub.async().unsubscribe(channel).toCompletableFuture();
    }

    @Override
    public void onMessage(BiConsumer<String, String> listener) {
        this.pubSub.addListener(new RedisClusterPubSubAdapter<>() {
            @Override
            public void message(io.lettuce.core.cluster.models.partitions.RedisClusterNode node, String channel,
                    String message) {
                listener.accept(channel, message);
            }
        });
    }

    @Override
    public boolean publishCountsListeners() {
        return false;
    }

    @Override
    public void close() {
        try {
            this.pubSub.close();
        }
        finally {
            this.connection.close();
        }
    }
}
