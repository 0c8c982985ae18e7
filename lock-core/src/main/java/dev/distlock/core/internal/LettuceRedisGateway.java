package dev.distlock.core.internal;

import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.jspecify.annotations.Nullable;

/**
 * {@link RedisGateway} over a Lettuce {@link RedisClient} (standalone, or Sentinel through a Sentinel
 * {@code RedisURI}): one command connection, one pub/sub connection. Lettuce re-subscribes after a reconnect; messages
 * published meanwhile are lost, which waiters tolerate through their back-off bound.
 */
public final class LettuceRedisGateway implements RedisGateway {

    private final StatefulRedisConnection<String, String> connection;

    private final RedisAsyncCommands<String, String> commands;

    private final StatefulRedisPubSubConnection<String, String> pubSub;

    private final @Nullable StatefulRedisConnection<String, String> ackConnection;

    private final ConnectionStatus status;

    /** A gateway without replica acknowledgement. */
    public LettuceRedisGateway(RedisClient client) {
        this(client, false);
    }

    /**
     * @param client the Lettuce client to open connections on
     * @param replicaAcks whether to open the dedicated connection for acquire + {@code WAIT}
     */
    public LettuceRedisGateway(RedisClient client, boolean replicaAcks) {
        this.status = ConnectionStatus.watching(client);
        try {
            this.connection = client.connect(StringCodec.UTF8);
        }
        catch (RuntimeException ex) {
            this.status.close();
            throw ex;
        }
        this.status.track(this.connection);
        StatefulRedisPubSubConnection<String, String> pubSubConnection = null;
        try {
            pubSubConnection = client.connectPubSub(StringCodec.UTF8);
            this.ackConnection = replicaAcks ? client.connect(StringCodec.UTF8) : null;
        }
        catch (RuntimeException ex) {
            if (pubSubConnection != null) {
                pubSubConnection.close();
            }
            this.connection.close();
            this.status.close();
            throw ex;
        }
        this.pubSub = pubSubConnection;
        this.commands = this.connection.async();
        // Warm the script cache so the first lock operations need no NOSCRIPT retry; failures are harmless.
        for (LuaScript script : LuaScript.ALL) {
            this.commands.scriptLoad(script.body());
        }
    }

    @Override
    public <T> CompletableFuture<T> eval(LuaScript script, ScriptOutputType type, String[] keys, String... args) {
        return ScriptCalls.eval(this.commands, script, type, keys, args);
    }

    @Override
    public <T> CompletableFuture<Acknowledged<T>> evalAcknowledged(LuaScript script, ScriptOutputType type,
            String[] keys, int replicas, long timeoutMillis, String... args) {
        if (this.ackConnection == null) {
            throw new IllegalStateException("Replica acknowledgement was not enabled when this gateway was created");
        }
        RedisAsyncCommands<String, String> ack = this.ackConnection.async();
        return ScriptCalls.<T>eval(ack, script, type, keys, args)
            .thenCompose((reply) -> ack.waitForReplication(replicas, timeoutMillis).toCompletableFuture()
                .thenApply((acks) -> new Acknowledged<>(reply, acks)));
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
        this.pubSub.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
                listener.accept(channel, message);
            }
        });
    }

    @Override
    public ConnectionStatus connectionStatus() {
        return this.status;
    }

    @Override
    public void close() {
        this.status.close();
        try {
            this.pubSub.close();
            if (this.ackConnection != null) {
                this.ackConnection.close();
            }
        }
        finally {
            this.connection.close();
        }
    }
}
