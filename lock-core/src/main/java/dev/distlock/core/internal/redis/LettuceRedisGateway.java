package dev.distlock.core.internal.redis;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link RedisGateway} over a Lettuce {@link RedisClient}, standalone or Sentinel: one command connection, one pub/sub
 * connection (and one replica-acknowledgement connection when asked for), held as one {@link MasterConnections} set.
 * Lettuce re-subscribes after a reconnect; messages published meanwhile are lost, which waiters tolerate through their
 * back-off bound.
 *
 * <p>With a standalone URI the set is opened once on the client's URI and kept. With a Sentinel URI (read from the
 * client, see {@link SentinelUris}) the set is opened directly on the master the Sentinels report, and a
 * {@link SentinelMasterFollower} moves it whole to the new master when the Sentinels announce a switch
 * ({@code +switch-master}), when a command is refused with {@code READONLY}, or when the command connection
 * reconnects and the Sentinels say the master is elsewhere. An announcement that our master was replaced closes the
 * current set at once (commands fail fast until the move is done: nothing more reaches the demoted master); then the
 * new set is opened and checked ({@code ROLE} is master), the active channels are subscribed on it, and it replaces
 * the old set, which is closed, failing the commands still in flight on it (unknown outcomes to their callers).
 */
public final class LettuceRedisGateway implements RedisGateway {

    private static final Logger logger = LoggerFactory.getLogger(LettuceRedisGateway.class);

    private static final long MOVE_TIMEOUT_MILLIS = 5_000;

    private final RedisClient client;

    private final boolean replicaAcks;

    private final @Nullable RedisURI sentinelUri;

    private final @Nullable SentinelMasterFollower follower;

    /** Channels subscribed through this gateway and not unsubscribed since: re-subscribed after a move. */
    private final Set<String> channels = ConcurrentHashMap.newKeySet();

    private final RedisPubSubAdapter<String, String> messages = new RedisPubSubAdapter<>() {
        @Override
        public void message(String channel, String message) {
            LettuceRedisGateway.this.listener.accept(channel, message);
        }
    };

    private final ReentrantLock swap = new ReentrantLock();

    private volatile BiConsumer<String, String> listener = (channel, message) -> {
    };

    private volatile MasterConnections connections;

    private volatile boolean closed;

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
        this(client, SentinelUris.of(client).orElse(null), replicaAcks);
    }

    /**
     * @param sentinelUri the client's Sentinel URI, or null to use the client's own URI as it is
     */
    LettuceRedisGateway(RedisClient client, @Nullable RedisURI sentinelUri, boolean replicaAcks) {
        this.client = client;
        this.replicaAcks = replicaAcks;
        this.sentinelUri = sentinelUri;
        this.status = ConnectionStatus.watching(client);
        if (sentinelUri == null) {
            this.follower = null;
            try {
                this.connections = MasterConnections.open(client, replicaAcks, this.messages);
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
            following.follow(new Mover());
        }
        this.status.track(this.connections.command());
        this.connections.warmScripts();
    }

    private MasterConnections openOn(MasterAddress master) {
        RedisURI uri = this.sentinelUri;
        if (uri == null) {
            throw new IllegalStateException("A standalone gateway has no master to move to");
        }
        MasterConnections opened = MasterConnections.open(this.client, master, uri, this.replicaAcks, this.messages);
        opened.onReconnect(() -> checkMaster("command connection to " + master + " reconnected"));
        return opened;
    }

    /** The connection set in use now (for health checks: {@link MasterConnections#isCommandOpen()}). */
    MasterConnections connections() {
        return this.connections;
    }

    @Override
    public <T> CompletableFuture<T> eval(LuaScript script, ScriptOutputType type, String[] keys, String... args) {
        return followReadOnly(ScriptCalls.eval(this.connections.commands(), script, type, keys, args));
    }

    @Override
    public <T> CompletableFuture<Acknowledged<T>> evalAcknowledged(LuaScript script, ScriptOutputType type,
            String[] keys, int replicas, long timeoutMillis, String... args) {
        RedisAsyncCommands<String, String> ack = this.connections.ackCommands();
        return followReadOnly(ScriptCalls.<T>eval(ack, script, type, keys, args)
            .thenCompose((reply) -> ack.waitForReplication(replicas, timeoutMillis).toCompletableFuture()
                .thenApply((acks) -> new Acknowledged<>(reply, acks))));
    }

    @Override
    public CompletableFuture<Boolean> exists(String key) {
        return this.connections.commands().exists(key).toCompletableFuture()
            .thenApply((count) -> count != null && count > 0);
    }

    @Override
    public CompletableFuture<Void> subscribe(String channel) {
        // recorded before it is sent, so a move that swaps connections meanwhile re-subscribes it
        this.channels.add(channel);
        return this.connections.pubSub().subscribe(channel).toCompletableFuture();
    }

    @Override
    public CompletableFuture<Void> unsubscribe(String channel) {
        this.channels.remove(channel);
        return this.connections.pubSub().unsubscribe(channel).toCompletableFuture();
    }

    @Override
    public void onMessage(BiConsumer<String, String> listener) {
        this.listener = listener;
    }

    @Override
    public ConnectionStatus connectionStatus() {
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

    /** A {@code READONLY} reply means our master was demoted: look where the master is now. */
    private <T> CompletableFuture<T> followReadOnly(CompletableFuture<T> reply) {
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

    /** Moves the connection set to a new master, for the {@link SentinelMasterFollower}. */
    private final class Mover implements SentinelMasterFollower.Target {

        @Override
        public @Nullable MasterAddress current() {
            MasterConnections current = LettuceRedisGateway.this.connections;
            return current.isRetired() ? null : current.address();
        }

        @Override
        public void retire(MasterAddress demoted) {
            MasterConnections current = LettuceRedisGateway.this.connections;
            if (demoted.equals(current.address()) && !current.isRetired()) {
                current.retire();
                logger.info("Redis master '{}' at {} was replaced: lock connections to it closed", masterId(), demoted);
            }
        }

        @Override
        public void moveTo(MasterAddress master, String reason) {
            long started = System.nanoTime();
            MasterConnections next = openOn(master);
            List<String> resubscribed;
            try {
                String role = String.valueOf(await(next.commands().role()).get(0));
                if (!"master".equals(role)) {
                    throw new RedisException("The Sentinels report " + master + " as master '"
                            + masterId() + "', but it reports role " + role);
                }
                resubscribed = List.copyOf(LettuceRedisGateway.this.channels);
                if (!resubscribed.isEmpty()) {
                    await(next.pubSub().subscribe(resubscribed.toArray(String[]::new)));
                }
            }
            catch (RuntimeException ex) {
                next.close();
                throw ex;
            }
            MasterConnections previous;
            LettuceRedisGateway.this.swap.lock();
            try {
                if (LettuceRedisGateway.this.closed) {
                    next.close();
                    return;
                }
                previous = LettuceRedisGateway.this.connections;
                LettuceRedisGateway.this.connections = next;
                LettuceRedisGateway.this.status.track(next.command());
            }
            finally {
                LettuceRedisGateway.this.swap.unlock();
            }
            previous.close();
            reconcileChannels(next, resubscribed);
            next.warmScripts();
            logger.info("Lock connections moved from Redis {} to the new master '{}' at {} in {} ms ({}); {} "
                    + "channel(s) re-subscribed", previous.address(), masterId(),
                    master, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), reason, resubscribed.size());
        }

        private String masterId() {
            SentinelMasterFollower following = LettuceRedisGateway.this.follower;
            return (following != null) ? following.masterId() : "?";
        }

        /** Channels subscribed or unsubscribed on the old set while the new one was being prepared. */
        private void reconcileChannels(MasterConnections next, List<String> resubscribed) {
            String[] added = LettuceRedisGateway.this.channels.stream().filter((c) -> !resubscribed.contains(c))
                .toArray(String[]::new);
            if (added.length > 0) {
                next.pubSub().subscribe(added);
            }
            String[] removed = resubscribed.stream().filter((c) -> !LettuceRedisGateway.this.channels.contains(c))
                .toArray(String[]::new);
            if (removed.length > 0) {
                next.pubSub().unsubscribe(removed);
            }
        }

        private static <T> T await(java.util.concurrent.CompletionStage<T> stage) {
            try {
                return stage.toCompletableFuture().get(MOVE_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
            }
            catch (ExecutionException ex) {
                throw (ex.getCause() instanceof RedisException redis) ? redis
                        : new RedisException(String.valueOf(ex.getCause()), ex.getCause());
            }
            catch (TimeoutException ex) {
                throw new RedisException("No reply within " + MOVE_TIMEOUT_MILLIS + " ms", ex);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new RedisException("Interrupted", ex);
            }
        }
    }
}
