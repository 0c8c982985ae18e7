package dev.distlock.core.internal.redis;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.codec.StringCodec;

/**
 * The {@link Topology} of a Lettuce {@link RedisClusterClient}. Scripts are routed by the slot of their first key;
 * all keys of a lock share a hash tag, so no script crosses slots. Lettuce follows MOVED and ASK redirections and
 * refreshes the topology; a node that lost its script cache (failover, restart) answers NOSCRIPT and gets the script
 * again by {@code EVAL}; TRYAGAIN during a slot migration is retried. Messages use sharded pub/sub: the scripts
 * {@code SPUBLISH} on the master of the lock's slot (every channel carries the lock's hash tag), which delivers to the
 * subscribers of that shard only, and counts them, so a waiter whose client does not listen is skipped at once; each
 * channel is subscribed on its slot's master and follows it ({@link ShardSubscriptions}). No replica
 * acknowledgement; the connection state is not tracked.
 */
final class ClusterTopology implements Topology {

    private static final int MAX_TRY_AGAIN = 100;

    private static final Executor TRY_AGAIN_DELAY = CompletableFuture.delayedExecutor(20, TimeUnit.MILLISECONDS);

    private final StatefulRedisClusterConnection<String, String> connection;

    private final StatefulRedisClusterPubSubConnection<String, String> pubSub;

    private final ShardSubscriptions subscriptions;

    /**
     * Opens a command connection and a pub/sub connection.
     *
     * @param messages receives (channel, message) of every message of the subscribed channels
     * @throws io.lettuce.core.RedisException if a connection cannot be opened; none is left open
     */
    ClusterTopology(RedisClusterClient client, BiConsumer<String, String> messages) {
        this.connection = client.connect(StringCodec.UTF8);
        try {
            this.pubSub = client.connectPubSub(StringCodec.UTF8);
        }
        catch (RuntimeException ex) {
            this.connection.close();
            throw ex;
        }
        this.subscriptions = new ShardSubscriptions(client, this.pubSub, messages);
    }

    @Override
    public RedisClusterAsyncCommands<String, String> commands() {
        return this.connection.async();
    }

    @Override
    public RedisClusterAsyncCommands<String, String> ackCommands() {
        throw new UnsupportedOperationException("Replica acknowledgement (WAIT) is not supported on Redis Cluster "
                + "by this client yet; set replicaAcks to 0");
    }

    @Override
    public CompletableFuture<Void> subscribe(String channel) {
        return this.subscriptions.subscribe(channel);
    }

    @Override
    public CompletableFuture<Void> unsubscribe(String channel) {
        return this.subscriptions.unsubscribe(channel);
    }

    /** Sharded pub/sub: the channel lives on the shard of the lock's slot. */
    @Override
    public String publishCommand() {
        return "spublish";
    }

    @Override
    public <T> CompletableFuture<T> route(Supplier<CompletableFuture<T>> call) {
        return retryingTryAgain(call, 0);
    }

    /** Retries TRYAGAIN (slot migration in progress) every 20 ms; the caller's operation timeout bounds the total. */
    private <T> CompletableFuture<T> retryingTryAgain(Supplier<CompletableFuture<T>> call, int attempt) {
        return call.get().exceptionallyCompose((ex) -> {
            if (!ScriptCalls.isTryAgain(ex) || attempt >= MAX_TRY_AGAIN) {
                return CompletableFuture.failedFuture(ex);
            }
            return CompletableFuture.runAsync(() -> { }, TRY_AGAIN_DELAY)
                .thenCompose((ignored) -> retryingTryAgain(call, attempt + 1));
        });
    }

    /** The slot's master counts its shard subscribers ({@code PUBSUB SHARDNUMSUB}); every client subscribes there. */
    @Override
    public boolean publishCountsListeners() {
        return true;
    }

    @Override
    public void close() {
        try {
            this.subscriptions.close();
            this.pubSub.close();
        }
        finally {
            this.connection.close();
        }
    }
}
