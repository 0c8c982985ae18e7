package dev.distlock.core.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;

import io.lettuce.core.RedisNoScriptException;
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
 * again by {@code EVAL}. Release messages use regular pub/sub, which the cluster bus delivers to every node.
 */
public final class LettuceClusterGateway implements RedisGateway {

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
        CompletableFuture<T> bySha = this.commands.<T>evalsha(script.sha1(), type, keys, args).toCompletableFuture();
        return bySha.exceptionallyCompose((ex) -> isNoScript(ex)
                ? this.commands.<T>eval(script.body(), type, keys, args).toCompletableFuture()
                : CompletableFuture.failedFuture(ex));
    }

    @Override
    public <T> CompletableFuture<Acknowledged<T>> evalAcknowledged(LuaScript script, ScriptOutputType type,
            String[] keys, int replicas, long timeoutMillis, String... args) {
        throw new UnsupportedOperationException("Replica acknowledgement (WAIT) is not supported on Redis Cluster "
                + "by this client yet; set replicaAcks to 0");
    }

    private static boolean isNoScript(Throwable ex) {
        Throwable cause = (ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex;
        return cause instanceof RedisNoScriptException
                || (cause.getMessage() != null && cause.getMessage().startsWith("NOSCRIPT"));
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
    public void close() {
        try {
            this.pubSub.close();
        }
        finally {
            this.connection.close();
        }
    }
}
