package dev.distlock.core.internal.protocol;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.distlock.core.internal.LockEngine;
import dev.distlock.core.internal.redis.LuaScript;

/**
 * The write side of a read/write lock: exclusive of readers and other writers, queued like the reentrant lock. The
 * release of the writer, or of the last reader, hands the lock to the first live queued writer. Queued writers keep
 * new readers out (writer preference), so a steady stream of readers cannot starve them. A thread that holds a read
 * hold may not ask for the write lock: that upgrade would deadlock against another reader doing the same, so it fails
 * at once.
 */
final class WriteProtocol extends QueuedProtocol {

    private final ReadWriteKeys keys;

    WriteProtocol(LockEngine engine, ReadWriteKeys keys) {
        super(engine, new Layout(keys.names(), keys.writeKey(), keys.writerQueueKey(), LuaScript.WRITE_ACQUIRE, null,
                null, LuaScript.WRITE_RELEASE, List.of(keys.readersKey()), keys.names().channel(), false));
        this.keys = keys;
    }

    @Override
    public String kind() {
        return "write";
    }

    @Override
    public String prepare(ThreadHoldsView holds, Thread thread) {
        if (holds.holds(this.keys.readHoldKey(), thread)) {
            throw new IllegalStateException("Thread " + thread.getName() + " holds a read lock on '" + lockName()
                    + "' and asks for its write lock: upgrading would deadlock with any other reader doing the same. "
                    + "Release the read lock first, or take the write lock first and downgrade.");
        }
        return "";
    }

    @Override
    public CompletableFuture<Boolean> isLocked() {
        return ReadWriteProtocols.isLocked(engine(), this.keys);
    }

    @Override
    public CompletableFuture<Boolean> forceRelease() {
        return ReadWriteProtocols.forceRelease(engine(), this.keys);
    }
}
