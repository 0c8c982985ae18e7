package dev.distlock.core.internal;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.LockClientOptions;
import io.lettuce.core.ScriptOutputType;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every lock of one client shares: the gateway to Redis, the lock scripts with their timeouts, the watchdog,
 * the wait rooms and the per-thread holds that make blocking acquisitions reentrant.
 */
public final class LockEngine implements AutoCloseable {

    private static final Logger logger = LoggerFactory.getLogger(LockEngine.class);

    private final RedisGateway gateway;

    private final LockClientOptions options;

    private final ScheduledThreadPoolExecutor scheduler;

    private final LeaseWatchdog watchdog;

    private final WaitRooms waitRooms;

    private final OwnerTokens ownerTokens = new OwnerTokens();

    private final ConcurrentMap<ThreadHoldKey, Hold> threadHolds = new ConcurrentHashMap<>();

    private final Executor completionExecutor = ForkJoinPool.commonPool();

    private final String fencingArgument;

    public LockEngine(RedisGateway gateway, LockClientOptions options) {
        this.gateway = gateway;
        this.options = options;
        this.fencingArgument = options.fencing() ? Long.toString(options.fencingCounterRetention().toMillis()) : "0";
        this.scheduler = new ScheduledThreadPoolExecutor(1, (runnable) -> {
            Thread thread = new Thread(runnable, "distlock-watchdog-" + this.ownerTokens.clientId());
            thread.setDaemon(true);
            return thread;
        });
        this.scheduler.setRemoveOnCancelPolicy(true);
        this.waitRooms = new WaitRooms(gateway);
        this.watchdog = new LeaseWatchdog(this, options.watchdogLease(), this.scheduler);
    }

    public LockClientOptions options() {
        return this.options;
    }

    public LockKeys keys(@Nullable String name) {
        return LockKeys.of(this.options.keyPrefix(), name, this.options.maxNameLength());
    }

    String newOwner() {
        return this.ownerTokens.next();
    }

    LeaseWatchdog watchdog() {
        return this.watchdog;
    }

    WaitRooms waitRooms() {
        return this.waitRooms;
    }

    ConcurrentMap<ThreadHoldKey, Hold> threadHolds() {
        return this.threadHolds;
    }

    Executor completionExecutor() {
        return this.completionExecutor;
    }

    /** One acquire round trip. Fails with the gateway's error or a timeout after the operation timeout. */
    CompletableFuture<AttemptResult> attempt(LockKeys keys, String owner, long leaseMillis) {
        long sentAt = System.nanoTime();
        CompletableFuture<List<Object>> reply = this.gateway.eval(LuaScript.ACQUIRE, ScriptOutputType.MULTI,
                new String[] { keys.lockKey(), keys.fenceKey() }, owner, Long.toString(leaseMillis),
                this.fencingArgument);
        return withTimeout(reply).thenApply((values) -> {
            long status = toLong(values.get(0));
            long value = toLong(values.get(1));
            return (status == 1) ? new AttemptResult(new Grant(owner, value, sentAt), -1)
                    : new AttemptResult(null, value);
        });
    }

    /** Owner-checked release; true when our key was deleted. Wakes local waiters at once. */
    CompletableFuture<Boolean> release(LockKeys keys, String owner) {
        CompletableFuture<Long> reply = this.gateway.eval(LuaScript.RELEASE, ScriptOutputType.INTEGER,
                new String[] { keys.lockKey() }, owner, keys.channel());
        return withTimeout(reply).thenApply((deleted) -> {
            if (deleted == 1L) {
                this.waitRooms.wakeUp(keys.channel());
                return true;
            }
            return false;
        });
    }

    /** Owner-checked release for an outcome we do not know or no longer want; errors are only logged. */
    void releaseQuietly(LockKeys keys, String owner) {
        release(keys, owner).whenComplete((deleted, ex) -> {
            if (ex != null) {
                logger.debug("Clean-up release of lock '{}' (owner {}) failed; the key expires with its lease",
                        keys.name(), owner, ex);
            }
        });
    }

    /** Owner-checked extend ({@code leaseMillis > 0}) or ownership check ({@code 0}); true while we own the key. */
    CompletableFuture<Boolean> renew(LockKeys keys, String owner, long leaseMillis) {
        CompletableFuture<Long> reply = this.gateway.eval(LuaScript.RENEW, ScriptOutputType.INTEGER,
                new String[] { keys.lockKey() }, owner, Long.toString(leaseMillis));
        return withTimeout(reply).thenApply((owned) -> owned == 1L);
    }

    CompletableFuture<Boolean> forceRelease(LockKeys keys) {
        CompletableFuture<Long> reply = this.gateway.eval(LuaScript.FORCE_RELEASE, ScriptOutputType.INTEGER,
                new String[] { keys.lockKey() }, keys.channel());
        return withTimeout(reply).thenApply((deleted) -> {
            this.waitRooms.wakeUp(keys.channel());
            return deleted == 1L;
        });
    }

    CompletableFuture<Boolean> exists(LockKeys keys) {
        return withTimeout(this.gateway.exists(keys.lockKey()));
    }

    private <T> CompletableFuture<T> withTimeout(CompletableFuture<T> reply) {
        return reply.orTimeout(this.options.operationTimeout().toNanos(), TimeUnit.NANOSECONDS);
    }

    private static long toLong(Object value) {
        if (value instanceof Long number) {
            return number;
        }
        return Long.parseLong(String.valueOf(value));
    }

    /** Number of holds the watchdog tracks (renewal or expiry). */
    public int watchedHolds() {
        return this.watchdog.size();
    }

    /** Number of lock names with local waiters (and so an unlock subscription). */
    public int waitingNames() {
        return this.waitRooms.activeRooms();
    }

    @Override
    public void close() {
        this.watchdog.close();
        this.scheduler.shutdownNow();
        this.gateway.close();
    }

    record ThreadHoldKey(String lockKey, Thread thread) {
    }
}
