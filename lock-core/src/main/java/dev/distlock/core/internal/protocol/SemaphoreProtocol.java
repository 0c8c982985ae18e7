package dev.distlock.core.internal.protocol;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.distlock.core.internal.redis.LuaScript;
import dev.distlock.core.internal.scripts.SemaphoreAcquireArgs;
import dev.distlock.core.internal.scripts.SemaphoreLeaveArgs;
import dev.distlock.core.internal.scripts.SemaphoreReleaseArgs;
import dev.distlock.core.internal.scripts.SemaphoreSetPermitsArgs;
import io.lettuce.core.ScriptOutputType;

/**
 * One permit of a semaphore as a lock kind: each grant is a member {@code 'owner|token'} of the permits sorted set
 * with its own lease, renewed, checked and released like a read hold. Waiters queue in Redis and take freed permits in
 * arrival order (see {@code semaphore-acquire.lua}); a waiter keeps its place while it asks again within
 * its keep-alive, so one whose process died drops out on its own.
 */
public final class SemaphoreProtocol implements RacingProtocol {

    private final LockCommands commands;

    private final SemaphoreKeys keys;

    private final int declaredPermits;

    private final long waiterKeepAliveMillis;

    private final Runnable wakeLocalWaiters;

    /**
     * @param declaredPermits the permit count the caller declared, stored when Redis has none
     * @param waiterKeepAliveMillis how long a queued waiter keeps its place without asking again
     * @param wakeLocalWaiters wakes this client's waiters at once after a release, before the broadcast arrives
     */
    public SemaphoreProtocol(LockCommands commands, SemaphoreKeys keys, int declaredPermits,
            long waiterKeepAliveMillis, Runnable wakeLocalWaiters) {
        this.commands = commands;
        this.keys = keys;
        this.declaredPermits = declaredPermits;
        this.waiterKeepAliveMillis = waiterKeepAliveMillis;
        this.wakeLocalWaiters = wakeLocalWaiters;
    }

    @Override
    public String kind() {
        return "semaphore";
    }

    @Override
    public String lockName() {
        return this.keys.names().name();
    }

    @Override
    public String holdKey() {
        return this.keys.permitsKey();
    }

    @Override
    public String channel() {
        return this.keys.names().channel();
    }

    /** Every local waiter keeps its own place in the Redis queue, so all of them ask when woken. */
    @Override
    public boolean singleRacer() {
        return false;
    }

    @Override
    public CompletableFuture<AttemptResult> attempt(String owner, long leaseMillis, String context,
            boolean willWait) {
        long sentAt = System.nanoTime();
        CompletableFuture<List<Object>> reply = this.commands.evalAcquire(LuaScript.SEMAPHORE_ACQUIRE,
                lockName(), new String[] { this.keys.permitsKey(), this.keys.countKey(), this.keys.waitersKey(),
                        this.keys.waiterDeadlinesKey(), this.keys.names().fenceKey(),
                        this.keys.names().tombstoneKey(owner) },
                new SemaphoreAcquireArgs(owner, leaseMillis, this.commands.fenceRetentionMillis(), this.declaredPermits,
                        willWait ? this.waiterKeepAliveMillis : 0).argv());
        return reply.thenApply((values) -> MemberHolds.asMember(LockCommands.attemptResult(values, owner, sentAt),
                owner));
    }

    @Override
    public CompletableFuture<Boolean> renew(String owner, long leaseMillis) {
        return MemberHolds.renew(this.commands, this.keys.permitsKey(), owner, leaseMillis);
    }

    @Override
    public CompletableFuture<Boolean> release(String owner) {
        CompletableFuture<Long> reply = this.commands.eval(LuaScript.SEMAPHORE_RELEASE,
                ScriptOutputType.INTEGER, new String[] { this.keys.permitsKey() },
                new SemaphoreReleaseArgs(owner, channel(), this.commands.publishCommand()).argv());
        return reply.thenApply((removed) -> {
            this.wakeLocalWaiters.run();
            return removed == 1L;
        });
    }

    @Override
    public CompletableFuture<?> abandon(String owner, long tombstoneMillis) {
        return leave(owner, tombstoneMillis);
    }

    @Override
    public void leaveQueue(String owner) {
        leave(owner, 0);
    }

    private CompletableFuture<Long> leave(String owner, long tombstoneMillis) {
        return this.commands.eval(LuaScript.SEMAPHORE_LEAVE, ScriptOutputType.INTEGER,
                new String[] { this.keys.permitsKey(), this.keys.waitersKey(), this.keys.waiterDeadlinesKey(),
                        this.keys.names().tombstoneKey(owner) },
                new SemaphoreLeaveArgs(owner, tombstoneMillis, channel(), this.commands.publishCommand()).argv());
    }

    /** Whether any permit is held now. */
    @Override
    public CompletableFuture<Boolean> isLocked() {
        return inspect().thenApply((values) -> !((List<?>) values.get(1)).isEmpty());
    }

    /** Semaphores are not force-released as a whole; an operator sets their permits instead. */
    @Override
    public CompletableFuture<Boolean> forceRelease() {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("Semaphore '" + lockName()
                + "' cannot be force-released as a whole; its holders' permits return when they close or their "
                + "leases end"));
    }

    /** Sets the permit count; the reply is the previous count (0 when none was stored). */
    public CompletableFuture<Long> setPermits(int permits) {
        return this.commands.eval(LuaScript.SEMAPHORE_SET_PERMITS, ScriptOutputType.INTEGER,
                new String[] { this.keys.countKey() },
                new SemaphoreSetPermitsArgs(permits, channel(), this.commands.publishCommand()).argv());
    }

    /** The reply of {@code semaphore-inspect.lua}: {count, {permit, remaining ms, ...}, {waiter, ...}}. */
    public CompletableFuture<List<Object>> inspect() {
        return inspect(this.commands, this.keys);
    }

    /** Inspects any semaphore by its keys. */
    public static CompletableFuture<List<Object>> inspect(LockCommands commands, SemaphoreKeys keys) {
        return commands.eval(LuaScript.SEMAPHORE_INSPECT, ScriptOutputType.MULTI,
                new String[] { keys.permitsKey(), keys.countKey(), keys.waitersKey(), keys.waiterDeadlinesKey() });
    }
}
