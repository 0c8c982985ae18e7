package dev.distlock.core.internal.redis;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows a Sentinel-managed master for a {@link LettuceRedisGateway}: subscribes to {@value #SWITCH_CHANNEL} on every
 * Sentinel of the URI and, when one announces a new address for our master (or the gateway reports a {@code READONLY}
 * reply or a reconnect), asks all Sentinels where the master is and has the {@link Target} move there.
 *
 * <p>An announcement that the master we use was replaced retires our connections to it at once (the {@link Target}
 * closes them), so commands fail fast instead of reaching the demoted master while the new one is resolved and
 * connected.
 *
 * <p>Where the master is: every reachable Sentinel is asked {@code SENTINEL MASTER <name>} in parallel and the answer
 * with the highest configuration epoch wins (the Sentinel that led the failover has it first; the others learn it
 * within a few seconds), ties going to the address most Sentinels report. If no Sentinel answers, the address of the
 * last announcement is used.
 *
 * <p>Checks are coalesced and run one at a time on one daemon thread; a move that fails (the new master not reachable
 * yet, or not reporting itself master) is retried every {@value #RETRY_MILLIS} ms for up to {@link #PATIENCE}.
 * A Sentinel that cannot be subscribed to is retried every {@value #RESUBSCRIBE_MILLIS} ms until {@link #close()}.
 */
final class SentinelMasterFollower implements AutoCloseable {

    /** The Sentinel channel on which a master's new address is announced. */
    static final String SWITCH_CHANNEL = "+switch-master";

    private static final Logger logger = LoggerFactory.getLogger(SentinelMasterFollower.class);

    private static final Duration MAX_RESOLVE_TIMEOUT = Duration.ofSeconds(2);

    private static final long RETRY_MILLIS = 200;

    private static final long RESUBSCRIBE_MILLIS = 5_000;

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    /** What the follower moves: the gateway's connection set. */
    interface Target {

        /** The master the target's connections go to now; null when they were retired and a move is due. */
        @Nullable MasterAddress current();

        /**
         * Stops using the current connections at once if they go to {@code demoted}: called on a Lettuce thread when
         * a Sentinel announces that master's replacement, before the new master is resolved and connected, so that
         * nothing more is sent to the demoted master meanwhile (commands fail fast instead). Must not block.
         */
        void retire(MasterAddress demoted);

        /**
         * Moves every connection to {@code master}; returns once the new connections are in use.
         *
         * @throws RedisException if the new master cannot be reached or does not report itself master
         */
        void moveTo(MasterAddress master, String reason);
    }

    private final RedisClient client;

    private final RedisURI sentinelUri;

    private final String masterId;

    private final Duration resolveTimeout;

    private final ScheduledExecutorService executor;

    private final List<StatefulRedisPubSubConnection<String, String>> subscriptions = new CopyOnWriteArrayList<>();

    private final AtomicBoolean checkPending = new AtomicBoolean();

    private volatile @Nullable MasterAddress announced;

    private volatile @Nullable Target target;

    private volatile boolean closed;

    /**
     * @param client the Lettuce client to open Sentinel connections on
     * @param sentinelUri a URI with Sentinels and a master id
     */
    SentinelMasterFollower(RedisClient client, RedisURI sentinelUri) {
        this.client = client;
        this.sentinelUri = sentinelUri;
        this.masterId = sentinelUri.getSentinelMasterId();
        Duration timeout = sentinelUri.getTimeout();
        this.resolveTimeout = (timeout.compareTo(MAX_RESOLVE_TIMEOUT) < 0) ? timeout : MAX_RESOLVE_TIMEOUT;
        this.executor = Executors.newSingleThreadScheduledExecutor((task) -> {
            Thread thread = new Thread(task, "distlock-sentinel-" + this.masterId);
            thread.setDaemon(true);
            return thread;
        });
    }

    /** The master id the Sentinels know our master by. */
    String masterId() {
        return this.masterId;
    }

    /**
     * Where the master is now, by the Sentinels' highest configuration epoch.
     *
     * @throws RedisConnectionException if no Sentinel answered within the resolve timeout; the message says who was
     * asked and what the last one said
     */
    MasterAddress resolve() {
        List<RedisURI> sentinels = this.sentinelUri.getSentinels();
        List<CompletableFuture<Map<String, String>>> answers = new ArrayList<>();
        for (RedisURI sentinel : sentinels) {
            answers.add(askMaster(sentinel));
        }
        long deadline = System.nanoTime() + this.resolveTimeout.toNanos();
        @Nullable MasterAddress best = null;
        long bestEpoch = Long.MIN_VALUE;
        int bestVotes = 0;
        List<MasterAddress> seen = new ArrayList<>();
        List<Long> epochs = new ArrayList<>();
        Throwable last = null;
        for (CompletableFuture<Map<String, String>> answer : answers) {
            Map<String, String> master;
            try {
                master = answer.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
            catch (ExecutionException ex) {
                last = ex.getCause();
                continue;
            }
            catch (TimeoutException ex) {
                last = ex;
                continue;
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new RedisConnectionException("Interrupted while asking the Sentinels for master '"
                        + this.masterId + "'", ex);
            }
            MasterAddress address;
            long epoch;
            try {
                address = new MasterAddress(master.get("ip"), Integer.parseInt(master.get("port")));
                epoch = Long.parseLong(master.getOrDefault("config-epoch", "0"));
            }
            catch (RuntimeException ex) {
                last = ex;
                continue;
            }
            seen.add(address);
            epochs.add(epoch);
        }
        for (int i = 0; i < seen.size(); i++) {
            MasterAddress candidate = seen.get(i);
            long epoch = epochs.get(i);
            int votes = (int) seen.stream().filter(candidate::equals).count();
            if (epoch > bestEpoch || (epoch == bestEpoch && votes > bestVotes)) {
                best = candidate;
                bestEpoch = epoch;
                bestVotes = votes;
            }
        }
        if (best == null) {
            throw new RedisConnectionException("No Sentinel of " + sentinels + " told where master '" + this.masterId
                    + "' is within " + this.resolveTimeout.toMillis() + " ms (SENTINEL MASTER " + this.masterId
                    + "); last answer: " + last, last);
        }
        return best;
    }

    private CompletableFuture<Map<String, String>> askMaster(RedisURI sentinel) {
        return this.client.connectSentinelAsync(StringCodec.UTF8, sentinel).thenCompose((connection) -> connection
            .async().master(this.masterId).toCompletableFuture()
            .orTimeout(this.resolveTimeout.toMillis(), TimeUnit.MILLISECONDS)
            .whenComplete((ignored, ex) -> connection.closeAsync()));
    }

    /**
     * Starts following: subscribes to every Sentinel's announcements (without waiting for them) and checks once, so a
     * switch between the gateway's first resolution and the subscriptions is not missed.
     */
    void follow(Target target) {
        this.target = target;
        for (RedisURI sentinel : this.sentinelUri.getSentinels()) {
            subscribe(sentinel);
        }
        check("following started");
    }

    /** Asks for a check of where the master is; coalesced with a check already waiting to run. */
    void check(String reason) {
        if (this.closed || this.target == null || !this.checkPending.compareAndSet(false, true)) {
            return;
        }
        try {
            this.executor.execute(() -> runCheck(reason));
        }
        catch (RejectedExecutionException ex) {
            // closed meanwhile
        }
    }

    private void runCheck(String reason) {
        this.checkPending.set(false);
        Target following = this.target;
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!this.closed && following != null) {
            MasterAddress master;
            try {
                master = resolve();
            }
            catch (RedisException ex) {
                master = this.announced;
                if (master == null) {
                    logger.warn("Cannot check where Redis master '{}' is ({}): {}", this.masterId, reason,
                            ex.getMessage());
                    return;
                }
            }
            if (master.equals(following.current())) {
                return;
            }
            try {
                following.moveTo(master, reason);
                return;
            }
            catch (RuntimeException ex) {
                if (System.nanoTime() - deadline > 0) {
                    logger.warn("Gave up moving the lock connections to Redis master '{}' at {} after {} s: {}",
                            this.masterId, master, PATIENCE.toSeconds(), ex.toString());
                    return;
                }
                logger.debug("Moving the lock connections to Redis master '{}' at {} failed, retrying: {}",
                        this.masterId, master, ex.toString());
            }
            try {
                Thread.sleep(RETRY_MILLIS);
            }
            catch (InterruptedException ex) {
                return;
            }
        }
    }

    private void subscribe(RedisURI sentinel) {
        if (this.closed) {
            return;
        }
        this.client.connectPubSubAsync(StringCodec.UTF8, sentinel).whenComplete((connection, ex) -> {
            if (ex != null) {
                logger.debug("Cannot subscribe to Sentinel {} for master switches, retrying in {} ms: {}", sentinel,
                        RESUBSCRIBE_MILLIS, ex.toString());
                retrySubscribe(sentinel);
                return;
            }
            connection.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    announcement(sentinel, message);
                }
            });
            // a Sentinel link that was down may have missed an announcement: look again once it is back
            connection.addListener(new RedisConnectionStateListener() {
                @Override
                public void onRedisConnected(RedisChannelHandler<?, ?> handler, SocketAddress address) {
                    check("Sentinel " + sentinel + " reconnected");
                }
            });
            this.subscriptions.add(connection);
            if (this.closed) {
                connection.closeAsync();
                return;
            }
            connection.async().subscribe(SWITCH_CHANNEL).whenComplete((ignored, failure) -> {
                if (failure != null) {
                    this.subscriptions.remove(connection);
                    connection.closeAsync();
                    retrySubscribe(sentinel);
                }
            });
        });
    }

    private void retrySubscribe(RedisURI sentinel) {
        try {
            this.executor.schedule(() -> subscribe(sentinel), RESUBSCRIBE_MILLIS, TimeUnit.MILLISECONDS);
        }
        catch (RejectedExecutionException ex) {
            // closed meanwhile
        }
    }

    private void announcement(RedisURI sentinel, String message) {
        MasterAddress[] switched = MasterAddress.switched(this.masterId, message);
        Target following = this.target;
        if (switched == null || following == null || this.closed) {
            return;
        }
        this.announced = switched[1];
        logger.info("Sentinel {} announced {} {}", sentinel, SWITCH_CHANNEL, message);
        if (!switched[0].equals(switched[1])) {
            following.retire(switched[0]);
        }
        check(SWITCH_CHANNEL + " " + message);
    }

    /** Stops following and closes the Sentinel connections. */
    @Override
    public void close() {
        this.closed = true;
        this.executor.shutdownNow();
        for (StatefulRedisPubSubConnection<String, String> connection : this.subscriptions) {
            connection.closeAsync();
        }
        this.subscriptions.clear();
    }
}
