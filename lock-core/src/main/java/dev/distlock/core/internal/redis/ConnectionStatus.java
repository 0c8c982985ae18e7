package dev.distlock.core.internal.redis;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import dev.distlock.core.internal.time.DurationFormat;
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
    static final ConnectionStatus UNTRACKED = new ConnectionStatus(null);

    private final @Nullable AbstractRedisClient client;

    /** For a gateway that has not connected yet: where it tries to go and why it could not; null otherwise. */
    private final @Nullable Pending pending;

    private volatile @Nullable RedisChannelHandler<?, ?> tracked;

    private volatile @Nullable SocketAddress address;

    /** The Sentinel master the tracked connection goes to ({@code host:port}), or null to report {@link #address}. */
    private volatile @Nullable String master;

    private volatile long disconnectedAtNanos;

    private volatile boolean disconnected;

    private final AtomicLong disconnects = new AtomicLong();

    private ConnectionStatus(@Nullable AbstractRedisClient client) {
        this(client, null);
    }

    private ConnectionStatus(@Nullable AbstractRedisClient client, @Nullable Pending pending) {
        this.client = client;
        this.pending = pending;
    }

    /**
     * The status of a gateway that has never connected: not connected, lock calls fail fast at once (no grace: there
     * is no connection to come back), and the reason is the last failed attempt's.
     *
     * @param target where the gateway tries to connect, for messages
     * @param lastFailure the last attempt's failure, or null before the first attempt ended
     */
    static ConnectionStatus notConnectedYet(String target, Supplier<@Nullable String> lastFailure) {
        return new ConnectionStatus(null, new Pending(target, lastFailure));
    }

    private record Pending(String target, Supplier<@Nullable String> lastFailure) {
    }

    /** Starts listening to the connections of {@code client}; call {@link #track} once the connection is open. */
    static ConnectionStatus watching(AbstractRedisClient client) {
        ConnectionStatus status = new ConnectionStatus(client);
        client.addListener(status);
        return status;
    }

    /**
     * The connection to report on; a new one replaces the one tracked before (a Sentinel master move), whose state is
     * forgotten, so a later drop of the new one gets its own grace.
     *
     * @param master the master it goes to, reported as the target; null to report the address it connects to
     */
    void track(StatefulConnection<?, ?> connection, @Nullable MasterAddress master) {
        if (connection instanceof RedisChannelHandler<?, ?> handler) {
            this.master = (master != null) ? master.host() + ":" + master.port() : null;
            this.tracked = handler;
            this.disconnected = false;
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
            this.disconnects.incrementAndGet();
        }
    }

    /**
     * How often the command connection was lost so far. Lettuce re-sends a command that was in flight when its
     * connection dropped, so a reply read after this count changed may be the second run's.
     */
    public long disconnects() {
        return this.disconnects.get();
    }

    /** Whether the command connection is connected now; false while Lettuce reconnects. */
    public boolean isConnected() {
        if (this.pending != null) {
            return false;
        }
        RedisChannelHandler<?, ?> current = this.tracked;
        return current == null || current.isOpen();
    }

    /** How long the command connection has been down; zero while connected. */
    Duration disconnectedFor() {
        if (isConnected()) {
            return Duration.ZERO;
        }
        return this.disconnected ? Duration.ofNanos(System.nanoTime() - this.disconnectedAtNanos) : Duration.ZERO;
    }

    /** Whether this is the status of a gateway that has not connected yet ({@link #notConnectedYet}). */
    public boolean neverConnected() {
        return this.pending != null;
    }

    /**
     * Why lock calls should fail fast now, or null when they may go ahead: the connection has been down at least
     * {@code grace} (shorter blips are ridden out), or it was never made.
     */
    public @Nullable String unavailableReason(Duration grace) {
        Pending never = this.pending;
        if (never != null) {
            String failure = never.lastFailure().get();
            return "not connected since the lock client started" + ((failure != null) ? ": " + failure : "")
                    + "; connecting in the background";
        }
        Duration down = disconnectedFor();
        if (down.compareTo(grace) >= 0) {
            return "connection lost " + DurationFormat.format(down) + " ago; reconnecting in the background";
        }
        return null;
    }

    /** Where the command connection goes ({@code host:port}; the current master under Sentinel), or "Redis". */
    public String target() {
        if (this.pending != null) {
            return this.pending.target();
        }
        String following = this.master;
        if (following != null) {
            return following;
        }
        SocketAddress current = this.address;
        if (current instanceof InetSocketAddress inet) {
            return inet.getHostString() + ":" + inet.getPort();
        }
        return (current != null) ? current.toString() : "Redis";
    }

    /** Stops listening. */
    void close() {
        if (this.client != null) {
            this.client.removeListener(this);
        }
    }
}
