package dev.distlock.core.internal.redis;

import java.net.SocketAddress;
import java.time.Duration;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubListener;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.pubsub.api.async.RedisPubSubAsyncCommands;
import org.jspecify.annotations.Nullable;

/**
 * The connections a {@link MasterTopology} uses at one time, all to the same server: the command connection,
 * the optional replica-acknowledgement connection and the pub/sub connection. When a Sentinel-managed master moves,
 * the gateway opens a new set on the new master and closes this one whole, so no connection is left on the old
 * master.
 */
final class MasterConnections implements AutoCloseable {

    private final @Nullable MasterAddress address;

    private final StatefulRedisConnection<String, String> command;

    private final @Nullable StatefulRedisConnection<String, String> ack;

    private final StatefulRedisPubSubConnection<String, String> pubSub;

    /** Whether Lettuce fails every command of the command connection after the operation timeout itself. */
    private final boolean commandsExpire;

    private volatile boolean retired;

    private MasterConnections(@Nullable MasterAddress address, StatefulRedisConnection<String, String> command,
            @Nullable StatefulRedisConnection<String, String> ack, StatefulRedisPubSubConnection<String, String> pubSub,
            boolean commandsExpire) {
        this.address = address;
        this.command = command;
        this.ack = ack;
        this.pubSub = pubSub;
        this.commandsExpire = commandsExpire;
    }

    /**
     * Opens the connections on the client's own URI (standalone, or Lettuce's Sentinel lookup).
     *
     * @param operationTimeout put to the command connection where Lettuce times its commands out (see
     *     {@link CommandExpiry}); zero leaves it as the client made it
     * @throws io.lettuce.core.RedisException if a connection cannot be opened; none is left open
     */
    static MasterConnections open(RedisClient client, boolean replicaAcks, Duration operationTimeout,
            RedisPubSubListener<String, String> listener) {
        return openOn(client, null, null, replicaAcks, operationTimeout, listener);
    }

    /**
     * Opens the connections directly on a master the Sentinels reported.
     *
     * @param master where to connect
     * @param sentinelUri the application's Sentinel URI, whose credentials, TLS, database and timeout are kept
     * @throws io.lettuce.core.RedisException if a connection cannot be opened; none is left open
     */
    static MasterConnections open(RedisClient client, MasterAddress master, RedisURI sentinelUri, boolean replicaAcks,
            Duration operationTimeout, RedisPubSubListener<String, String> listener) {
        return openOn(client, master, master.toUri(sentinelUri), replicaAcks, operationTimeout, listener);
    }

    private static MasterConnections openOn(RedisClient client, @Nullable MasterAddress address, @Nullable RedisURI uri,
            boolean replicaAcks, Duration operationTimeout, RedisPubSubListener<String, String> listener) {
        StatefulRedisConnection<String, String> command = (uri != null) ? client.connect(StringCodec.UTF8, uri)
                : client.connect(StringCodec.UTF8);
        StatefulRedisPubSubConnection<String, String> pubSub = null;
        try {
            pubSub = (uri != null) ? client.connectPubSub(StringCodec.UTF8, uri) : client.connectPubSub(StringCodec.UTF8);
            StatefulRedisConnection<String, String> ack = !replicaAcks ? null
                    : (uri != null) ? client.connect(StringCodec.UTF8, uri) : client.connect(StringCodec.UTF8);
            pubSub.addListener(listener);
            return new MasterConnections(address, command, ack, pubSub,
                    CommandExpiry.enforce(client.getOptions(), command, operationTimeout));
        }
        catch (RuntimeException ex) {
            if (pubSub != null) {
                pubSub.close();
            }
            command.close();
            throw ex;
        }
    }

    /** The master these connections go to; null when opened on the client's own URI. */
    @Nullable MasterAddress address() {
        return this.address;
    }

    /** Runs {@code callback} (on a Lettuce thread: it must not block) each time the command connection reconnects. */
    void onReconnect(Runnable callback) {
        this.command.addListener(new RedisConnectionStateListener() {
            @Override
            public void onRedisConnected(RedisChannelHandler<?, ?> connection, SocketAddress socketAddress) {
                callback.run();
            }
        });
    }

    /**
     * Closes the connections without waiting, because their server is no longer the master; {@link #isRetired()}
     * is true from now on. Commands sent on them from now on fail at once.
     */
    void retire() {
        this.retired = true;
        this.pubSub.closeAsync();
        if (this.ack != null) {
            this.ack.closeAsync();
        }
        this.command.closeAsync();
    }

    /** Whether {@link #retire()} was called. */
    boolean isRetired() {
        return this.retired;
    }

    RedisAsyncCommands<String, String> commands() {
        return this.command.async();
    }

    /** The replica-acknowledgement connection's commands. */
    RedisAsyncCommands<String, String> ackCommands() {
        if (this.ack == null) {
            throw new IllegalStateException("Replica acknowledgement was not enabled when this gateway was created");
        }
        return this.ack.async();
    }

    RedisPubSubAsyncCommands<String, String> pubSub() {
        return this.pubSub.async();
    }

    /** Loads every script, so the first lock operations need no {@code NOSCRIPT} retry; failures are harmless. */
    void warmScripts() {
        RedisAsyncCommands<String, String> commands = this.command.async();
        for (LuaScript script : LuaScript.ALL) {
            commands.scriptLoad(script.body());
        }
    }

    /** Whether Lettuce fails every command of {@link #commands()} after the operation timeout itself. */
    boolean commandsExpire() {
        return this.commandsExpire;
    }

    /** The command connection, for tracking its state. */
    StatefulRedisConnection<String, String> command() {
        return this.command;
    }

    /** Closes every connection; commands still in flight on them fail (an unknown outcome to their callers). */
    @Override
    public void close() {
        try {
            this.pubSub.close();
            if (this.ack != null) {
                this.ack.close();
            }
        }
        finally {
            this.command.close();
        }
    }

    @Override
    public String toString() {
        return "connections to " + ((this.address != null) ? this.address : "the client's URI");
    }
}
