package dev.distlock.core.internal.redis;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
 * Follows a Sentinel-managed master for a {@link MasterTopology}: subscribes to {@value #SWITCH_CHANNEL} on every
 * Sentinel of the URI and, when one announces a new address for our master (or the gateway reports a {@code READONLY}
 * reply or a reconnect), asks all Sentinels where the master is and has the {@link Target} move there.
 *
 * <p>An announcement that the master we use was replaced retires our connections to it at once (the {@link Target}
 * closes them), so commands fail fast instead of reaching the demoted master while the new one is resolved and
 * connected.
 *
 * <p>Where the master is, {@link SentinelMasterLookup} finds out from all Sentinels; if no Sentinel answers, the address
 * of the last announcement is used.
 *
 * <p>Checks are coalesced and run one at a time on one daemon thread. A move that fails (the new master not reachable
 * yet, or not reporting itself master) is retried, asking the Sentinels again each time, after {@value #RETRY_MILLIS}
 * ms doubling up to {@value #MAX_RETRY_MILLIS} ms, until a master answers or {@link #close()}: never given up, because
 * once the connections to the demoted master are retired nothing else would ever ask again (a closed connection
 * neither reconnects nor gets a {@code READONLY} reply). Failed moves are reported by {@link FailedMoves}: one warning
 * per check once they outlast its patience. A Sentinel that cannot be subscribed to is retried every {@value #RESUBSCRIBE_MILLIS} ms until
 * {@link #close()}.
 */
final class SentinelMasterFollower implements AutoCloseable {

    /** The Sentinel channel on which a master's new address is announced. */
    static final String SWITCH_CHANNEL = "+switch-master";

    private static final Logger logger = LoggerFactory.getLogger(SentinelMasterFollower.class);

    private static final long RETRY_MILLIS = 200;

    private static final long MAX_RETRY_MILLIS = 2_000;

    private static final long RESUBSCRIBE_MILLIS = 5_000;

    /** What the follower moves: the topology's connection set ({@link MasterMover}). */
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

    private final SentinelMasterLookup lookup;

    private final Duration patience;

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
        this.lookup = new SentinelMasterLookup(client, sentinelUri);
        this.patience = FailedMoves.patience();
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
     * Where the master is now ({@link SentinelMasterLookup#resolve()}).
     *
     * @throws RedisConnectionException if no Sentinel answered within the resolve timeout
     */
    MasterAddress resolve() {
        return this.lookup.resolve();
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
        FailedMoves failures = new FailedMoves(this.masterId, this.patience);
        long delay = RETRY_MILLIS;
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
                failures.moved(master);
                return;
            }
            catch (RuntimeException ex) {
                failures.failed(master, delay, MAX_RETRY_MILLIS, ex);
            }
            try {
                Thread.sleep(delay);
            }
            catch (InterruptedException ex) {
                return;
            }
            delay = Math.min(2 * delay, MAX_RETRY_MILLIS);
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
