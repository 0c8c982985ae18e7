package dev.distlock.core.internal;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import org.jspecify.annotations.Nullable;

/**
 * Whether a gateway's command connection is connected, since when it is not, and where it goes: so lock calls fail
 * fast with "not connected to Redis at host:port" instead of waiting out the operation timeout, and health checks
 * can say so. Listens to the Lettuce client's connection events; registered before the connection is opened so the
 * first address is known.
 */
public final class ConnectionStatus implements RedisConnectionStateListener {

    /** For gateways that do not track their connection (Redis Cluster): always connected, target unknown. */
    public static final ConnectionStatus UNTRACKED = new ConnectionStatus(null);

    private final @Nullable AbstractRedisClient client;

    private volatile @Nullable RedisChannelHandler<?, ?> tracked;

    private volatile @Nullable SocketAddress address;

    private volatile long disconnectedAtNanos;

    private volatile boolean disconnected;

    private ConnectionStatus(@Nullable AbstractRedisClient client) {
        this.client = client;
    }

    /** Starts listening to the connections of {@code client}; call {@link #track} once the connection is open. */
    public static ConnectionStatus watching(AbstractRedisClient client) {
        ConnectionStatus status = new ConnectionStatus(client);
        client.addListener(status);
        return status;
    }

    /** The connection to report on. */
    public void track(StatefulConnection<?, ?> connection) {
        if (connection instanceof RedisChannelHandler<?, ?> handler) {
            this.tracked = handler;
        }
    }

    @Override
    public void onRedisConnected(RedisChannelHandler<?, ?> connection, SocketAddress socketAddress) {
        if (connection instanceof StatefulRedisSentinelConnection<?, ?>) {
            return;
        }
        RedisChannelHandler<?, ?> current = this.tracked;
        if (current == null || current == connection) {
            this.address = socketAddress;
            this.disconnected = false;
        }
    }

    @Override
    public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
        if (connection == this.tracked && !this.disconnected) {
            this.disconnectedAtNanos = System.nanoTime();
            this.disconnected = true;
        }
    }

    /** Whether the command connection is connected now; false while Lettuce reconnects. */
    public boolean isConnected() {
        RedisChannelHandler<?, ?> current = this.tracked;
        return current == null || current.isOpen();
    }

    /** How long the command connection has been down; zero while connected. */
    public Duration disconnectedFor() {
        if (isConnected()) {
            return Duration.ZERO;
        }
        return this.disconnected ? Duration.ofNanos(System.nanoTime() - this.disconnectedAtNanos) : Duration.ZERO;
    }

    /** Where the command connection goes ({@code host:port}; the current master under Sentinel), or "Redis". */
    public String target() {
        SocketAddress current = this.address;
        if (current instanceof InetSocketAddress inet) {
            return inet.getHostString() + ":" + inet.getPort();
        }
        return (current != null) ? current.toString() : "Redis";
    }

    /** Stops listening. */
    public void close() {
        if (this.client != null) {
            this.client.removeListener(this);
        }
    }
}
