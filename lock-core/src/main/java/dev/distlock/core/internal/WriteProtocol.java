package dev.distlock.core.internal;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.ScriptOutputType;

/**
 * The write side of a read/write lock: exclusive of readers and other writers. A writer that waits registers as
 * waiting, which keeps new readers out (writer preference), so a steady stream of readers cannot starve it. A thread
 * that holds a read hold may not ask for the write lock: that upgrade would deadlock against another reader doing the
 * same, so it fails at once.
 */
final class WriteProtocol implements LockProtocol {

    private final LockEngine engine;

    private final ReadWriteKeys keys;

    WriteProtocol(LockEngine engine, ReadWriteKeys keys) {
        this.engine = engine;
        this.keys = keys;
    }

    @Override
    public String lockName() {
        return this.keys.names().name();
    }

    @Override
    public String holdKey() {
        return this.keys.writeHoldKey();
    }

    @Override
    public String channel() {
        return this.keys.names().channel();
    }

    @Override
    public boolean singleRacer() {
        return true;
    }

    @Override
    public String prepare(Thread thread) {
        Hold readHold = this.engine.threadHolds().get(new LockEngine.ThreadHoldKey(this.keys.readHoldKey(), thread));
        if (readHold != null && readHold.state() == Hold.State.HELD) {
            throw new IllegalStateException("Thread " + thread.getName() + " holds a read lock on '" + lockName()
                    + "' and asks for its write lock: upgrading would deadlock with any other reader doing the same. "
                    + "Release the read lock first, or take the write lock first and downgrade.");
        }
        return "";
    }

    @Override
    public CompletableFuture<AttemptResult> attempt(String owner, long leaseMillis, String context,
            boolean willWait) {
        long sentAt = System.nanoTime();
        CompletableFuture<List<Object>> reply = this.engine.evalAcquire(LuaScript.WRITE_ACQUIRE, lockName(),
                new String[] { this.keys.writeKey(), this.keys.readersKey(), this.keys.waitingWritersKey(),
                        this.keys.names().fenceKey(), this.keys.names().tombstoneKey(owner) },
                owner, Long.toString(leaseMillis), this.engine.fencingArgument(),
                Long.toString(3 * this.engine.options().maxBackoff().toMillis()), willWait ? "1" : "0");
        return reply.thenApply((values) -> LockEngine.attemptResult(values, owner, sentAt));
    }

    @Override
    public CompletableFuture<Boolean> renew(String owner, long leaseMillis) {
        return this.engine.renewOwnedKey(this.keys.writeKey(), owner, leaseMillis);
    }

    @Override
    public CompletableFuture<Boolean> release(String owner) {
        return this.engine.releaseOwnedKey(this.keys.writeKey(), owner, channel());
    }

    @Override
    public CompletableFuture<Boolean> isLocked() {
        return ReadWriteProtocols.isLocked(this.engine, this.keys);
    }

    @Override
    public CompletableFuture<Boolean> forceRelease() {
        return ReadWriteProtocols.forceRelease(this.engine, this.keys);
    }

    @Override
    public CompletableFuture<?> abandon(String owner, long tombstoneMillis) {
        LockKeys names = this.keys.names();
        return this.engine.abandonScript(names, owner, tombstoneMillis, this.keys.writeKey(), names.unusedKey(),
                names.unusedKey(), this.keys.waitingWritersKey());
    }

    @Override
    public void leaveQueue(String owner) {
        this.engine.quietly(lockName(), owner, leave(owner));
    }

    private CompletableFuture<Long> leave(String owner) {
        return this.engine.eval(LuaScript.WRITE_LEAVE, ScriptOutputType.INTEGER,
                new String[] { this.keys.waitingWritersKey() }, owner, channel());
    }
}
