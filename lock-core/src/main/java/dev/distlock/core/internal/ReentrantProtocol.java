package dev.distlock.core.internal;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.ScriptOutputType;

/** The plain reentrant lock: one key holding the owner token, first come first served. */
final class ReentrantProtocol implements LockProtocol {

    private final LockEngine engine;

    private final LockKeys keys;

    ReentrantProtocol(LockEngine engine, LockKeys keys) {
        this.engine = engine;
        this.keys = keys;
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
        return true;
    }

    @Override
    public CompletableFuture<AttemptResult> attempt(String owner, long leaseMillis, String context,
            boolean willWait) {
        long sentAt = System.nanoTime();
        CompletableFuture<List<Object>> reply = this.engine.evalAcquire(LuaScript.ACQUIRE, lockName(),
                new String[] { this.keys.lockKey(), this.keys.fenceKey(), this.keys.tombstoneKey(owner) }, owner,
                Long.toString(leaseMillis),
                this.engine.fencingArgument());
        return reply.thenApply((values) -> LockEngine.attemptResult(values, owner, sentAt));
    }

    @Override
    public CompletableFuture<Boolean> renew(String owner, long leaseMillis) {
        return this.engine.renewOwnedKey(this.keys.lockKey(), owner, leaseMillis);
    }

    @Override
    public CompletableFuture<Boolean> release(String owner) {
        return this.engine.releaseOwnedKey(this.keys.lockKey(), owner, this.keys.channel());
    }

    @Override
    public CompletableFuture<Boolean> isLocked() {
        return this.engine.exists(this.keys.lockKey());
    }

    @Override
    public CompletableFuture<Boolean> forceRelease() {
        CompletableFuture<Long> reply = this.engine.eval(LuaScript.FORCE_RELEASE, ScriptOutputType.INTEGER,
                new String[] { this.keys.lockKey() }, this.keys.channel());
        return reply.thenApply((deleted) -> {
            this.engine.waitRooms().wakeUp(this.keys.channel(), WaitRoom.EVERYONE);
            return deleted == 1L;
        });
    }

    @Override
    public CompletableFuture<?> abandon(String owner, long tombstoneMillis) {
        return this.engine.abandonScript(this.keys, owner, tombstoneMillis, this.keys.lockKey(),
                this.keys.unusedKey(), this.keys.unusedKey(), this.keys.unusedKey());
    }
}
