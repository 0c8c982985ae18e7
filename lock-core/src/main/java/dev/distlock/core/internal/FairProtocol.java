package dev.distlock.core.internal;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.ScriptOutputType;

/**
 * The fair lock: waiters queue on Redis in arrival order (a list plus a sorted set of per-waiter deadlines), the lock
 * is granted only to the head, and a release wakes only the head. A waiter that stops polling (its process died)
 * is dropped after the waiter timeout, three back-off periods, so it stalls the queue for seconds, not minutes.
 * Every waiter polls (there is no local single racer: each must keep its own place).
 */
public final class FairProtocol implements LockProtocol {

    private final LockEngine engine;

    private final LockKeys keys;

    private final String queueKey;

    private final String waitersKey;

    FairProtocol(LockEngine engine, LockKeys keys) {
        this.engine = engine;
        this.keys = keys;
        this.queueKey = keys.lockKey() + ":queue";
        this.waitersKey = keys.lockKey() + ":waiters";
    }

    /** The fair lock protocol for this name. */
    public static LockProtocol of(LockEngine engine, String name) {
        return new FairProtocol(engine, engine.keys(name));
    }

    /** How long a queued waiter keeps its place without polling. */
    long waiterTimeoutMillis() {
        return 3 * this.engine.options().maxBackoff().toMillis();
    }

    @Override
    public String lockName() {
        return this.keys.name();
    }

    @Override
    public String holdKey() {
        return this.keys.lockKey();
    }

    @Override
    public String channel() {
        return this.keys.channel();
    }

    @Override
    public boolean singleRacer() {
        return false;
    }

    @Override
    public CompletableFuture<AttemptResult> attempt(String owner, long leaseMillis, String context,
            boolean willWait) {
        long sentAt = System.nanoTime();
        CompletableFuture<List<Object>> reply = this.engine.evalAcquire(LuaScript.FAIR_ACQUIRE, lockName(),
                new String[] { this.keys.lockKey(), this.keys.fenceKey(), this.queueKey, this.waitersKey,
                        this.keys.tombstoneKey(owner) }, owner,
                Long.toString(leaseMillis), this.engine.fencingArgument(), Long.toString(waiterTimeoutMillis()),
                willWait ? "1" : "0", this.keys.channel());
        return reply.thenApply((values) -> LockEngine.attemptResult(values, owner, sentAt));
    }

    @Override
    public CompletableFuture<Boolean> renew(String owner, long leaseMillis) {
        return this.engine.renewOwnedKey(this.keys.lockKey(), owner, leaseMillis);
    }

    @Override
    public CompletableFuture<Boolean> release(String owner) {
        CompletableFuture<List<Object>> reply = this.engine.eval(LuaScript.FAIR_RELEASE, ScriptOutputType.MULTI,
                new String[] { this.keys.lockKey(), this.queueKey }, owner, this.keys.channel());
        return reply.thenApply((values) -> {
            String head = String.valueOf(values.get(1));
            if (!head.isEmpty()) {
                this.engine.waitRooms().wakeUp(this.keys.channel(), head);
            }
            return LockEngine.toLong(values.get(0)) == 1L;
        });
    }

    @Override
    public CompletableFuture<Boolean> isLocked() {
        return this.engine.exists(this.keys.lockKey());
    }

    @Override
    public CompletableFuture<Boolean> forceRelease() {
        CompletableFuture<Long> reply = this.engine.eval(LuaScript.FAIR_FORCE_RELEASE, ScriptOutputType.INTEGER,
                new String[] { this.keys.lockKey(), this.queueKey }, this.keys.channel());
        return reply.thenApply((deleted) -> deleted == 1L);
    }

    @Override
    public CompletableFuture<?> abandon(String owner, long tombstoneMillis) {
        return this.engine.abandonScript(this.keys, owner, tombstoneMillis, this.keys.lockKey(),
                this.keys.unusedKey(), this.queueKey, this.waitersKey);
    }

    @Override
    public void leaveQueue(String owner) {
        this.engine.quietly(lockName(), owner, leave(owner));
    }

    private CompletableFuture<Long> leave(String owner) {
        return this.engine.eval(LuaScript.FAIR_LEAVE, ScriptOutputType.INTEGER,
                new String[] { this.keys.lockKey(), this.queueKey, this.waitersKey }, owner, this.keys.channel());
    }
}
