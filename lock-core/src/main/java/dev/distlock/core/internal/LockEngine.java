package dev.distlock.core.internal;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.LockOperationException;
import dev.distlock.core.ReplicaAckPolicy;
import dev.distlock.core.internal.redis.ConnectionStatus;
import dev.distlock.core.internal.redis.LuaScript;
import dev.distlock.core.internal.redis.RedisGateway;
import io.lettuce.core.ScriptOutputType;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every lock of one client shares: the gateway to Redis with the operation timeout, the watchdog, the wait
 * rooms, the owner-token source and the per-thread holds that make blocking acquisitions reentrant.
 */
public final class LockEngine implements AutoCloseable {

    private static final Logger logger = LoggerFactory.getLogger(LockEngine.class);

    private final RedisGateway gateway;

    private final LockClientOptions options;

    private final ScheduledThreadPoolExecutor scheduler;

    private final LeaseWatchdog watchdog;

    private final WaitRooms waitRooms;

    private final HandoffRooms handoffRooms;

    private final LeaseRegistry leases = new LeaseRegistry();

    private final OwnerTokens ownerTokens;

    private final ConcurrentMap<ThreadHoldKey, Hold> threadHolds = new ConcurrentHashMap<>();

    private final Executor completionExecutor = ForkJoinPool.commonPool();

    private final OperationTimeouts timeouts;

    private final AtomicBoolean closed = new AtomicBoolean();

    private static final Duration TOMBSTONE_MIN = Duration.ofMinutes(1);

    /** How long a wake channel stays subscribed after its last waiter left, for the next contention on the name. */
    private static final Duration HANDOFF_LINGER = Duration.ofSeconds(30);

    /** A connection down this long fails lock calls fast; shorter blips (a reset, a reconnect) are ridden out. */
    static final Duration DISCONNECTED_GRACE = Duration.ofMillis(250);

    public LockEngine(RedisGateway gateway, LockClientOptions options) {
        this.gateway = gateway;
        this.options = options;
        this.ownerTokens = new OwnerTokens(options.instanceId());
        this.scheduler = new ScheduledThreadPoolExecutor(1, (runnable) -> {
            Thread thread = new Thread(runnable, "distlock-watchdog-" + this.ownerTokens.clientId());
            thread.setDaemon(true);
            return thread;
        });
        this.scheduler.setRemoveOnCancelPolicy(true);
        this.waitRooms = new WaitRooms(gateway);
        this.handoffRooms = new HandoffRooms(gateway, this.scheduler, HANDOFF_LINGER.toNanos());
        gateway.onMessage((channel, message) -> {
            if (!this.handoffRooms.deliver(channel, message)) {
                this.waitRooms.wakeUp(channel, message);
            }
        });
        this.timeouts = new OperationTimeouts(options.operationTimeout().toNanos(), this.completionExecutor);
        this.watchdog = new LeaseWatchdog(options.watchdogLease(), this.scheduler, this::releaseAbandoned,
                this::forgetThreadHold, this.leases);
    }

    public LockClientOptions options() {
        return this.options;
    }

    public LockKeys keys(@Nullable String name) {
        return LockKeys.of(this.options.keyPrefix(), name, this.options.maxNameLength());
    }

    /** The fencing argument of the acquire scripts: counter retention in ms, or "0" when fencing is off. */
    public String fencingArgument() {
        return this.options.fencing() ? Long.toString(this.options.fencingCounterRetention().toMillis()) : "0";
    }

    String newOwner() {
        return this.ownerTokens.next();
    }

    /** Identifies this client in owner tokens and wake channels. */
    String clientId() {
        return this.ownerTokens.clientId();
    }

    /** The command the queued-lock scripts announce a handoff with ({@code publish}, or {@code spublish}). */
    String publishCommand() {
        return this.gateway.publishCommand();
    }

    /** '1' when a publish's receiver count proves the waiter's client listens (so a silent waiter is skipped). */
    String listenerCountArgument() {
        return this.gateway.publishCountsListeners() ? "1" : "0";
    }

    /**
     * Fails fast once the client is closed, instead of queueing work no thread will run, and while the command
     * connection has been down longer than {@link #DISCONNECTED_GRACE}, instead of waiting out the operation timeout.
     */
    void checkOpen(String lockName) {
        if (this.closed.get()) {
            throw new LockOperationException(lockName, "The lock client is closed: lock '" + lockName
                    + "' cannot be used. Create a new client.", null);
        }
        ConnectionStatus status = this.gateway.connectionStatus();
        String unavailable = status.unavailableReason(DISCONNECTED_GRACE);
        if (unavailable != null) {
            throw new LockOperationException(lockName, "Lock '" + lockName + "': not connected to Redis at "
                    + status.target() + " (" + unavailable + "). Lock calls fail fast until it is back; check that"
                    + " Redis is running and reachable.", null);
        }
    }

    /** Whether the command connection is up and where it goes. */
    public ConnectionStatus connectionStatus() {
        return this.gateway.connectionStatus();
    }

    /** The client's single timer thread (watchdog ticks, wait deadlines); tasks on it must not block. */
    public ScheduledExecutorService scheduler() {
        return this.scheduler;
    }

    LeaseWatchdog watchdog() {
        return this.watchdog;
    }

    WaitRooms waitRooms() {
        return this.waitRooms;
    }

    HandoffRooms handoffRooms() {
        return this.handoffRooms;
    }

    ConcurrentMap<ThreadHoldKey, Hold> threadHolds() {
        return this.threadHolds;
    }

    Executor completionExecutor() {
        return this.completionExecutor;
    }

    /** Releases the hold of a thread that terminated without releasing it. */
    private void releaseAbandoned(Hold hold) {
        Thread thread = hold.thread();
        if (thread != null) {
            this.threadHolds.remove(new ThreadHoldKey(hold.protocol().holdKey(), thread), hold);
        }
        releaseQuietly(hold.protocol(), hold.owner());
    }

    /** Drops a lost hold from its thread's reentrancy table, unless a newer hold replaced it there. */
    private void forgetThreadHold(Hold hold) {
        Thread thread = hold.thread();
        if (thread != null) {
            this.threadHolds.remove(new ThreadHoldKey(hold.protocol().holdKey(), thread), hold);
        }
    }

    /** Owner-checked release of a grant that did arrive but is not wanted; failures only logged. */
    void releaseQuietly(LockProtocol protocol, String owner) {
        quietly(protocol.lockName(), owner, protocol.release(owner));
    }

    /**
     * Abandons an acquisition whose outcome is unknown (no reply: timeout, connection lost): runs the protocol's
     * clean-up, which leaves a tombstone for the owner and removes a possible grant, and retries it every back-off
     * step while it fails (Redis unreachable, failing over) and a late grant could still matter. A request that
     * Redis executes late - one Lettuce replays after a reconnect - then finds the tombstone and is refused, instead
     * of blocking the lock for a whole lease. Tombstones expire by themselves.
     */
    void abandon(LockProtocol protocol, String owner, long leaseMillis) {
        // The tombstone outlives the lease by a margin so that a command Lettuce replays after a long reconnect
        // still finds it; the clean-up is retried for as long as a late grant could matter.
        long tombstoneMillis = Math.max(2 * leaseMillis, TOMBSTONE_MIN.toMillis());
        retryUntil(protocol.lockName(), owner, () -> protocol.abandon(owner, tombstoneMillis),
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(leaseMillis));
    }

    /**
     * Retries the owner-checked release of a hold whose release failed in transit (Redis failing over, connection
     * reset), so the lock is free as soon as Redis answers again instead of only when its lease ends.
     */
    void releaseInBackground(LockProtocol protocol, String owner, long leaseMillis) {
        retryUntil(protocol.lockName(), owner, () -> protocol.release(owner),
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(leaseMillis));
    }

    private void retryUntil(String lockName, String owner, Supplier<CompletableFuture<?>> cleanup, long untilNanos) {
        if (this.closed.get()) {
            return;
        }
        cleanup.get().whenComplete((ignored, ex) -> {
            if (ex == null) {
                return;
            }
            if (System.nanoTime() - untilNanos < 0 && !this.closed.get()) {
                logger.debug("Clean-up of lock '{}' (owner {}) failed; retrying", lockName, owner, ex);
                try {
                    this.scheduler.schedule(() -> retryUntil(lockName, owner, cleanup, untilNanos),
                            this.options.maxBackoff().toNanos() / 2, TimeUnit.NANOSECONDS);
                }
                catch (java.util.concurrent.RejectedExecutionException closing) {
                    // The client is closing; the key expires with its lease.
                }
            }
            else {
                logger.debug("Gave up cleaning up lock '{}' (owner {}); it expires with its lease", lockName,
                        owner, ex);
            }
        });
    }

    /**
     * Runs the abandon script: tombstone for {@code owner}, then removes whatever it holds or queues for in the given
     * keys (all of one hash tag; pass {@link LockKeys#unusedKey()} for kinds without such a key).
     */
    CompletableFuture<Long> abandonScript(LockKeys keys, String owner, long tombstoneMillis, String lockOrWriteKey,
            String readersKey, String queueKey, String waitersKey) {
        return eval(LuaScript.ABANDON, ScriptOutputType.INTEGER, new String[] { keys.tombstoneKey(owner),
                lockOrWriteKey, readersKey, queueKey, waitersKey }, owner, Long.toString(tombstoneMillis),
                keys.channel());
    }

    /** Runs a script with the operation timeout. */
    <T> CompletableFuture<T> eval(LuaScript script, ScriptOutputType type, String[] keys, String... args) {
        return withTimeout(this.gateway.<T>eval(script, type, keys, args));
    }

    /**
     * Runs an acquire script (reply {@code {status, value}}). With replica acknowledgement on, a grant that fewer
     * than the required replicas acknowledged is failed with {@link ReplicaAckException} (the caller then abandons,
     * that is releases, it) or kept with a warning, per the configured policy.
     */
    CompletableFuture<List<Object>> evalAcquire(LuaScript script, String lockName, String[] keys, String... args) {
        int required = this.options.replicaAcks();
        if (required == 0) {
            return eval(script, ScriptOutputType.MULTI, keys, args);
        }
        CompletableFuture<RedisGateway.Acknowledged<List<Object>>> reply = this.gateway.evalAcknowledged(script,
                ScriptOutputType.MULTI, keys, required, this.options.replicaAckTimeout().toMillis(), args);
        return withTimeout(reply.thenApply((acknowledged) -> {
            List<Object> values = acknowledged.reply();
            if (toLong(values.get(0)) == 1 && acknowledged.replicas() < required) {
                String message = "Lock '" + lockName + "' was granted but only " + acknowledged.replicas() + " of "
                        + required + " required replicas acknowledged it within "
                        + DurationFormat.format(this.options.replicaAckTimeout()) + "; a failover now could hand it to someone else";
                if (this.options.replicaAckPolicy() == ReplicaAckPolicy.FAIL) {
                    throw new ReplicaAckException(lockName, message + ". The grant is being released.");
                }
                logger.warn(message);
            }
            return values;
        }));
    }

    /** Owner-checked extend ({@code leaseMillis > 0}) or check ({@code 0}) of a string lock key. */
    CompletableFuture<Boolean> renewOwnedKey(String key, String owner, long leaseMillis) {
        CompletableFuture<Long> reply = eval(LuaScript.RENEW, ScriptOutputType.INTEGER, new String[] { key }, owner,
                Long.toString(leaseMillis));
        return reply.thenApply((owned) -> owned == 1L);
    }

    CompletableFuture<Boolean> exists(String key) {
        return withTimeout(this.gateway.exists(key));
    }

    /** Runs a clean-up step whose failure only matters as a log line: the keys involved expire with their lease. */
    public void quietly(String lockName, String owner, CompletableFuture<?> cleanup) {
        cleanup.whenComplete((ignored, ex) -> {
            if (ex != null) {
                logger.debug("Clean-up of lock '{}' (owner {}) failed; its keys expire with their lease", lockName,
                        owner, ex);
            }
        });
    }

    private <T> CompletableFuture<T> withTimeout(CompletableFuture<T> reply) {
        return this.timeouts.apply(reply);
    }

    /** Parses a script reply element that Redis sent as an integer or a string. */
    public static long toLong(Object value) {
        if (value instanceof Long number) {
            return number;
        }
        return Long.parseLong(String.valueOf(value));
    }

    /** Parses the {@code {status, value}} reply of the acquire scripts. */
    static AttemptResult attemptResult(List<Object> reply, String owner, long sentAtNanos) {
        long status = toLong(reply.get(0));
        long value = toLong(reply.get(1));
        return (status == 1) ? new AttemptResult(new Grant(owner, value, sentAtNanos), -1)
                : new AttemptResult(null, value);
    }

    /** The holds of this client and the listeners told about them. */
    public LeaseRegistry leases() {
        return this.leases;
    }

    /** Number of holds the watchdog tracks (renewal or expiry). */
    public int watchedHolds() {
        return this.watchdog.size();
    }

    /** Number of lock names with local waiters (and so an unlock subscription). */
    public int waitingNames() {
        return this.waitRooms.activeRooms() + this.handoffRooms.activeRooms();
    }

    @Override
    public void close() {
        if (!this.closed.compareAndSet(false, true)) {
            return;
        }
        this.watchdog.close();
        this.handoffRooms.close();
        this.scheduler.shutdownNow();
        this.gateway.close();
    }

    record ThreadHoldKey(String holdKey, Thread thread) {
    }
}
