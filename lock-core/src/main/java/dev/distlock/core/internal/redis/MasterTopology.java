package dev.distlock.core.internal.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.RedisPubSubListener;
import org.jspecify.annotations.Nullable;

/**
 * The {@link Topology} of a Lettuce {@link RedisClient}, standalone or Sentinel: one command connection, one pub/sub
 * connection (and one replica-acknowledgement connection when asked for), held as one {@link MasterConnections} set.
 *
 * <p>With a standalone URI the set is opened once on the client's URI and kept. With a Sentinel URI (read from the
 * client, see {@link SentinelUris}) the set is opened directly on the master the Sentinels report, and a
 * {@link SentinelMasterFollower} has the {@link MasterMover} move it whole to the new master when the Sentinels
 * announce a switch ({@code +switch-master}), when a command is refused with {@code READONLY}, or when the command
 * connection reconnects and the Sentinels say the master is elsewhere. An announcement that our master was replaced
 * closes the current set at once (commands fail fast until the move is done: nothing more reaches the demoted
 * master); then the new set is opened and checked ({@code ROLE} is master), the active channels are subscribed on it,
 * and it replaces the old set, which is closed, failing the commands still in flight on it (unknown outcomes to their
 * callers).
 */
final class MasterTopology implements Topology {

    private final RedisClient client;

    private final boolean replicaAcks;

    private final Duration operationTimeout;

    private final @Nullable RedisURI sentinelUri;

    private final @Nullable SentinelMasterFollower follower;

    private final RedisPubSubListener<String, String> messages;

    private final ConnectionStatus status;

    /** Makes "closed" and "connections replaced" exclusive, so a set opened while closing is closed, not kept. */
    private final ReentrantLock swap = new ReentrantLock();

    private volatile MasterConnections connections;

    private volatile boolean closed;

    /**
     * Opens the connection set, on the client's URI or, with a Sentinel URI, on the master the Sentinels report, and
     * then starts following that master.
     *
     * @param sentinelUri the client's Sentinel URI, or null to use the client's own URI as it is
     * @param replicaAcks whether to open the dedicated connection for acquire + {@code WAIT}
     * @param operationTimeout put to every command connection where Lettuce times its commands out (see
     *     {@link CommandExpiry}); zero leaves them as the client makes them
     * @throws io.lettuce.core.RedisException if Redis (or every Sentinel) cannot be reached; nothing is left open
     */
    MasterTopology(RedisClient client, @Nullable RedisURI sentinelUri, boolean replicaAcks, Duration operationTimeout,
            LettuceGateway.Subscriptions subscriptions) {
        this.client = client;
        this.replicaAcks = replicaAcks;
        this.operationTimeout = operationTimeout;
        this.sentinelUri = sentinelUri;
        this.messages = new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
                subscriptions.messages().accept(channel, message);
            }
        };
        this.status = ConnectionStatus.watching(client);
        if (sentinelUri == null) {
            this.follower = null;
            try {
                this.connections = MasterConnections.open(client, replicaAcks, operationTimeout, this.messages);
            }
            catch (RuntimeException ex) {
                this.status.close();
                throw ex;
            }
        }
        else {
            SentinelMasterFollower following = new SentinelMasterFollower(client, sentinelUri);
            try {
                this.connections = openOn(following.resolve());
            }
            catch (RuntimeException ex) {
                following.close();
                this.status.close();
                throw ex;
            }
            this.follower = following;
            following.follow(new MasterMover(this, subscriptions.channels(), following.masterId()));
        }
        this.status.track(this.connections.command(), this.connections.address());
        this.connections.warmScripts();
    }

    /** Opens a new connection set directly on {@code master}, which looks for the master again when it reconnects. */
    MasterConnections openOn(MasterAddress master) {
        RedisURI uri = this.sentinelUri;
        if (uri == null) {
            throw new IllegalStateException("A standalone gateway has no master to move to");
        }
        MasterConnections opened = MasterConnections.open(this.client, master, uri, this.replicaAcks,
                this.operationTimeout, this.messages);
        opened.onReconnect(() -> checkMaster("command connection to " + master + " reconnected"));
        return opened;
    }

    /** The connection set in use now. */
    MasterConnections connections() {
        return this.connections;
    }

    /**
     * Puts {@code next} in use and tracks its command connection, unless this topology was closed, in which case
     * {@code next} is closed.
     *
     * @return the set that was in use before, for the caller to close; null when closed
     */
    @Nullable MasterConnections replace(MasterConnections next) {
        this.swap.lock();
        try {
            if (this.closed) {
                next.close();
                return null;
            }
            MasterConnections previous = this.connections;
            this.connections = next;
            this.status.track(next.command(), next.address());
            return previous;
        }
        finally {
            this.swap.unlock();
        }
    }

    @Override
    public RedisAsyncCommands<String, String> commands() {
        return this.connections.commands();
    }

    @Override
    public RedisAsyncCommands<String, String> ackCommands() {
        return this.connections.ackCommands();
    }

    @Override
    public CompletableFuture<Void> subscribe(String channel) {
        return this.connections.pubSub().subscribe(channel).toCompletableFuture();
    }

    @Override
    public CompletableFuture<Void> unsubscribe(String channel) {
        return this.connections.pubSub().unsubscribe(channel).toCompletableFuture();
    }

    /** A {@code READONLY} reply means our master was demoted: look where the master is now. */
    @Override
    public <T> CompletableFuture<T> route(Supplier<CompletableFuture<T>> call) {
        CompletableFuture<T> reply = call.get();
        if (this.follower != null) {
            reply.whenComplete((ignored, ex) -> {
                if (ex != null && isReadOnly(ex)) {
                    checkMaster("READONLY reply from " + this.connections.address());
                }
            });
        }
        return reply;
    }

    private void checkMaster(String reason) {
        if (this.follower != null) {
            this.follower.check(reason);
        }
    }

    private static boolean isReadOnly(Throwable ex) {
        Throwable cause = (ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex;
        return cause.getMessage() != null && cause.getMessage().startsWith("READONLY");
    }

    @Override
    public boolean timesOutCommands() {
        return this.connections.commandsExpire();
    }

    /** The one server counts every subscriber ({@code PUBSUB NUMSUB}). */
    @Override
    public boolean publishCountsListeners() {
        return true;
    }

    @Override
    public ConnectionStatus status() {
        return this.status;
    }

    @Override
    public void close() {
        this.status.close();
        this.swap.lock();
        try {
            this.closed = true;
        }
        finally {
            this.swap.unlock();
        }
        try {
            if (this.follower != null) {
                this.follower.close();
            }
        }
        finally {
            this.connections.close();
        }
    }
}
