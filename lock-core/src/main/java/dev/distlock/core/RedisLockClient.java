package dev.distlock.core;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.internal.LockEngine;
import dev.distlock.core.internal.LockInspector;
import dev.distlock.core.internal.MultiLock;
import dev.distlock.core.internal.ProtocolLock;
import dev.distlock.core.internal.ProtocolSemaphore;
import dev.distlock.core.internal.ReadWriteLocks;
import dev.distlock.core.internal.time.DurationFormat;
import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.resource.Delay;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entry point: hands out {@link RedisLock}s by name over one Redis deployment. One per application is the
 * intended use; it is thread-safe and cheap to share.
 *
 * <p>Standalone and Sentinel deployments are reached through a {@link RedisClient}, Redis Cluster through a
 * {@link RedisClusterClient}.
 *
 * <p><b>Sentinel.</b> When the {@link RedisClient} was created with a Sentinel {@code RedisURI}
 * ({@code redis-sentinel://...#master}), the client follows the Sentinels itself, because a Lettuce connection stays
 * on the server it reached and a master demoted by {@code SENTINEL FAILOVER} keeps accepting writes for several
 * seconds: it subscribes to {@code +switch-master} on every Sentinel of the URI and, when its master is replaced (or a
 * command is refused with {@code READONLY}, or its connection reconnects), moves every connection it owns (commands,
 * replica acknowledgement, pub/sub with the active subscriptions) to the master the Sentinels report. From the
 * announcement on, nothing more is sent to the demoted master: calls made while the client moves, and calls in
 * flight on the old connections, fail with {@link LockOperationException} (an unknown outcome, cleaned up like any
 * other). If the new master cannot be reached, the client keeps asking the Sentinels and retrying (back-off capped
 * at 2 s) until a master answers, however long that takes, and then works again by itself; {@link #isConnected()} is
 * false meanwhile. Promise: no grant on a demoted master later than 1 s after the Sentinels announce the new master
 * (measured: none after the announcement; the client uses the new master tens of milliseconds after it). Grants the
 * old master made but had not replicated are still lost in a failover: see replica acknowledgement in
 * {@link LockClientOptions} and use fencing tokens where that matters. The client finds the Sentinel URI by reading
 * the {@link RedisClient}'s default URI; a standalone URI is used as it is.
 *
 * <p>It opens one command connection and one pub/sub connection on the given Lettuce client when created (so a wrong
 * address or password fails here, not at the first lock), runs one watchdog thread that renews all leases in batches,
 * and shares one unlock subscription per waited-on lock name. Over Sentinel it also keeps one pub/sub connection per
 * Sentinel and one daemon thread ({@code distlock-sentinel-<master>}) that moves the connections. It does not own the
 * Lettuce client: {@link #close()} closes the connections it opened and stops renewing and following, and the caller
 * shuts the client down.
 *
 * <p>Closing the client does not release held locks: their keys expire after their lease.
 */
public final class RedisLockClient extends AbstractLockClient implements LockClient {

    private static final Logger logger = LoggerFactory.getLogger(RedisLockClient.class);

    private final OperatorCalls operator;

    private RedisLockClient(LockEngine engine, String topology) {
        super(engine);
        this.operator = new OperatorCalls(engine);
        LockClientOptions options = engine.options();
        if (engine.connectionStatus().neverConnected()) {
            logger.info("Distributed lock client {} started without Redis ({}): connecting to {} in the background;"
                    + " key prefix '{}', watchdog lease {}, operation timeout {}, fencing {}", options.instanceId(),
                    topology, engine.connectionStatus().target(), options.keyPrefix(),
                    DurationFormat.format(options.watchdogLease()), DurationFormat.format(options.operationTimeout()),
                    options.fencing() ? "on" : "off");
            return;
        }
        logger.info("Distributed lock client {} ready on Redis at {} ({}): key prefix '{}', watchdog lease {},"
                + " operation timeout {}, fencing {}{}", options.instanceId(), engine.connectionStatus().target(),
                topology, options.keyPrefix(), DurationFormat.format(options.watchdogLease()),
                DurationFormat.format(options.operationTimeout()), options.fencing() ? "on" : "off",
                (options.replicaAcks() > 0) ? ", replica acks " + options.replicaAcks() : "");
    }

    /**
     * The reconnect delay this library recommends for the Lettuce client it runs on: 10 ms doubling up to 1 s, so
     * locks work again within about a second after Redis comes back (Lettuce's default backs off up to 30 s). Set it
     * with {@code DefaultClientResources.builder().reconnectDelay(RedisLockClient.recommendedReconnectDelay())};
     * the Spring Boot starter does so by default.
     */
    public static Delay recommendedReconnectDelay() {
        return Delay.exponential(Duration.ofMillis(10), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS);
    }

    /** A client with {@link LockClientOptions#defaults()}. */
    public static RedisLockClient create(RedisClient redisClient) {
        return create(redisClient, LockClientOptions.defaults());
    }

    /**
     * A client over a standalone or Sentinel-managed Redis.
     *
     * @throws RedisUnreachableException if Redis cannot be reached or refuses the credentials; the message says which
     */
    public static RedisLockClient create(RedisClient redisClient, LockClientOptions options) {
        return new RedisLockClient(LockClientWiring.standalone(redisClient, options), "standalone or Sentinel");
    }

    /**
     * A client over a standalone or Sentinel-managed Redis that may not be up yet (an application that starts before
     * its Redis): it is created even when Redis cannot be reached, connects in the background (attempts 10 ms apart,
     * doubling up to 1 s) and from then on works like {@link #create(RedisClient, LockClientOptions)}. Until it has
     * connected, lock calls fail fast with a {@link LockOperationException} saying "not connected to Redis at ..."
     * and the last attempt's failure, and {@link #isConnected()} is false. Waits up to 1 s for the first connection,
     * so a Redis that is up is used from the first call on. A wrong password is retried like an absent server: the
     * log's WARN (once) and the fail-fast message say why.
     */
    public static RedisLockClient createConnectingInBackground(RedisClient redisClient, LockClientOptions options) {
        return new RedisLockClient(LockClientWiring.standaloneInBackground(redisClient, options),
                "standalone or Sentinel");
    }

    /**
     * A client over a Redis Cluster that may not be up yet; see
     * {@link #createConnectingInBackground(RedisClient, LockClientOptions)}.
     */
    public static RedisLockClient createConnectingInBackground(RedisClusterClient clusterClient,
            LockClientOptions options) {
        return new RedisLockClient(LockClientWiring.clusterInBackground(clusterClient, options), "Cluster");
    }

    /**
     * A client over a Redis Cluster. Every key of one lock shares a hash tag, so each script runs on one slot; a
     * multi-lock spans slots by taking its names one by one. Scripts missing on a node after failover are reloaded
     * transparently.
     *
     * @throws RedisUnreachableException if the cluster cannot be reached or refuses the credentials
     */
    public static RedisLockClient create(RedisClusterClient clusterClient, LockClientOptions options) {
        return new RedisLockClient(LockClientWiring.cluster(clusterClient, options), "Cluster");
    }

    /**
     * The reentrant lock with this name. Waiters queue in Redis in arrival order; a release hands the lock straight to
     * the first live waiter and tells only that waiter's client, which then holds it without another round trip. An
     * acquire that finds the lock held joins the queue. A queued waiter whose process died (its client no longer
     * listens) is skipped. A free lock is taken with one plain {@code SET NX}: in the moment after a holder's lease ran
     * out, before its queued waiters' next check, that may take it ahead of them, and its release then hands it to
     * them ({@link #getFairLock} never does).
     *
     * @throws IllegalArgumentException if the name is null, blank or longer than
     * {@link LockClientOptions#maxNameLength()}; nothing is sent to Redis
     */
    @Override
    public RedisLock getLock(String name) {
        return ProtocolLock.reentrant(engine(), name);
    }

    /**
     * The fair lock with this name: the same lock as {@code getLock(name)} (same keys and queue; waiters handed the
     * lock in arrival order), whose acquire also never takes a free lock ahead of a queued waiter, not even right
     * after a holder's lease ran out: it looks at the queue in a script call first, which costs Redis more CPU than
     * the reentrant lock's plain {@code SET NX}. For callers that rely on first-come first-served order across clients
     * in every case.
     *
     * @throws IllegalArgumentException if the name is invalid
     */
    @Override
    public RedisLock getFairLock(String name) {
        return ProtocolLock.fair(engine(), name);
    }

    /**
     * The read/write lock with this name.
     *
     * @throws IllegalArgumentException if the name is invalid
     */
    @Override
    public ReadWriteRedisLock getReadWriteLock(String name) {
        return ReadWriteLocks.readWriteLock(engine(), name);
    }

    /**
     * The semaphore with this name: at most its permit count of leased permits held at a time, across every client,
     * granted to waiters in arrival order (see {@link RedisSemaphore}). {@code permits} is the count this caller
     * declares: Redis stores it when it has none for the name (the first use, or after losing its data); a count
     * already stored, for instance by {@link RedisSemaphore#setPermits(int)}, stays. Not on {@link LockClient}: a
     * semaphore needs one Redis deployment to count on, which RedLock and the in-memory client do not offer alike.
     *
     * @throws IllegalArgumentException if the name is invalid or {@code permits} is less than 1; nothing is sent to
     * Redis
     */
    public RedisSemaphore getSemaphore(String name, int permits) {
        return ProtocolSemaphore.of(engine(), name, permits);
    }

    /**
     * What Redis knows about the semaphore {@code name} right now, in one round trip: its permit count, the permits
     * held with their owners, instances, fencing tokens and remaining leases, and the queued waiters. For operators
     * who know the name but not the count (the Actuator endpoint).
     *
     * @throws IllegalArgumentException if the name is invalid; nothing is sent to Redis
     * @throws LockOperationException if Redis does not answer within the operation timeout
     */
    public SemaphoreInfo inspectSemaphore(String name) {
        return this.operator.inspectSemaphore(name);
    }

    /**
     * One lock over several names, acquired all or nothing in a fixed order (so overlapping sets cannot deadlock).
     * Its lease reports one fencing token per name in {@link LockLease#fencingTokens()}. Duplicate names count once.
     *
     * @throws IllegalArgumentException if no name is given or one is invalid
     */
    @Override
    public RedisLock getMultiLock(Collection<String> names) {
        return MultiLock.of(engine(), List.copyOf(names));
    }

    /** Varargs form of {@link #getMultiLock(Collection)}. */
    @Override
    public RedisLock getMultiLock(String... names) {
        return getMultiLock(Arrays.asList(names));
    }

    /**
     * What Redis knows about the lock {@code name} right now, in one round trip: whether and how it is held, by
     * which owner and instance, the remaining lease, the fencing token and the queued waiters; plus how many leases
     * the calling thread holds on it through this client. A snapshot for people, not for decisions.
     *
     * @throws IllegalArgumentException if the name is invalid; nothing is sent to Redis
     * @throws LockOperationException if Redis does not answer within the operation timeout
     */
    public LockInfo inspect(String name) {
        return this.operator.inspect(name);
    }

    /**
     * Forces the lock {@code name} free whoever holds it (any kind: the reentrant or fair lock, else the read/write
     * lock's writer or every reader) and hands it to the next live queued waiter, in one step on Redis, so the report
     * names exactly the hold that was removed. An operator's tool: the evicted holder keeps running until it checks
     * its lease or its next renewal is refused (see {@link ForcedRelease}).
     *
     * @throws IllegalArgumentException if the name is invalid; nothing is sent to Redis
     * @throws LockOperationException if Redis does not answer within the operation timeout (the release may or may
     * not have happened: inspect the lock)
     */
    public ForcedRelease forceRelease(String name) {
        return this.operator.forceRelease(name);
    }

    /** Asynchronous form of {@link #inspect}; the thread hold count is the calling thread's. */
    public CompletionStage<LockInfo> inspectAsync(String name) {
        return new LockInspector(engine()).inspect(name);
    }

    /**
     * The leases this client holds now, oldest first: for dashboards and health checks. A snapshot; reentrant
     * acquisitions of one hold appear once.
     */
    public List<HeldLease> heldLeases() {
        return engine().leases().snapshot();
    }

    /** Registers a listener told about every lease of this client from now on; see {@link LockEventListener}. */
    public void addEventListener(LockEventListener listener) {
        engine().leases().addListener(listener);
    }

    /** Unregisters a listener added with {@link #addEventListener}. */
    public void removeEventListener(LockEventListener listener) {
        engine().leases().removeListener(listener);
    }

    /**
     * Whether the command connection to Redis is up now. While it has been down for more than a moment, lock calls
     * fail fast with "not connected to Redis at ..." (a {@link LockOperationException}). Not tracked on Redis
     * Cluster yet: always true there.
     */
    public boolean isConnected() {
        return engine().connectionStatus().isConnected();
    }

    /** Where the command connection goes: {@code host:port} (the current master under Sentinel), or "Redis". */
    public String redisTarget() {
        return engine().connectionStatus().target();
    }

    /** This client's instance id, the first part of every owner token it mints. */
    public String instanceId() {
        return engine().options().instanceId();
    }

    /** The options this client was created with. */
    @Override
    public LockClientOptions options() {
        return engine().options();
    }
}
