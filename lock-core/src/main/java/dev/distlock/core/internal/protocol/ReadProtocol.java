package dev.distlock.core.internal.protocol;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.distlock.core.internal.LockEngine;
import dev.distlock.core.internal.redis.LuaScript;
import dev.distlock.core.internal.scripts.ReadAcquireArgs;
import dev.distlock.core.internal.scripts.ReadReleaseArgs;
import io.lettuce.core.ScriptOutputType;

/**
 * The read side of a read/write lock: shared, each read hold with its own lease in a sorted set, refused while a
 * writer holds the lock or waits for it. The thread that holds the write lock may take read holds (downgrade).
 */
final class ReadProtocol implements RacingProtocol {

    private final LockEngine engine;

    private final ReadWriteKeys keys;

    /** The write side: the last reader's release may offer the lock to a queued writer, and that offer is watched. */
    private final WriteProtocol writers;

    ReadProtocol(LockEngine engine, ReadWriteKeys keys, WriteProtocol writers) {
        this.engine = engine;
        this.keys = keys;
        this.writers = writers;
    }

    @Override
    public String kind() {
        return "read";
    }

    @Override
    public String lockName() {
        return this.keys.names().name();
    }

    @Override
    public String holdKey() {
        return this.keys.readHoldKey();
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
    public String prepare(ThreadHoldsView holds, Thread thread) {
        String writeOwner = holds.validOwner(this.keys.writeHoldKey(), thread);
        return (writeOwner != null) ? writeOwner : "";
    }

    @Override
    public CompletableFuture<AttemptResult> attempt(String owner, long leaseMillis, String context,
            boolean willWait) {
        long sentAt = System.nanoTime();
        LockCommands commands = this.engine.commands();
        CompletableFuture<List<Object>> reply = commands.evalAcquire(LuaScript.READ_ACQUIRE, lockName(),
                new String[] { this.keys.writeKey(), this.keys.readersKey(), this.keys.writerQueueKey(),
                        this.keys.names().fenceKey(), this.keys.names().tombstoneKey(owner) },
                new ReadAcquireArgs(owner, leaseMillis, commands.fenceRetentionMillis(), context,
                        commands.publishCommand(), commands.countsListeners()).argv());
        return reply.thenApply((values) -> MemberHolds.asMember(LockCommands.attemptResult(values, owner, sentAt),
                owner));
    }

    @Override
    public CompletableFuture<Boolean> renew(String owner, long leaseMillis) {
        return MemberHolds.renew(this.engine.commands(), this.keys.readersKey(), owner, leaseMillis);
    }

    @Override
    public CompletableFuture<Boolean> release(String owner) {
        LockCommands commands = this.engine.commands();
        CompletableFuture<List<Object>> reply = commands.eval(LuaScript.READ_RELEASE, ScriptOutputType.MULTI,
                new String[] { this.keys.readersKey(), this.keys.writeKey(), this.keys.names().fenceKey(),
                        this.keys.writerQueueKey() },
                new ReadReleaseArgs(owner, channel(), commands.fenceRetentionMillis(), commands.publishCommand(),
                        commands.countsListeners()).argv());
        return reply.thenApply((values) -> {
            ReleaseReply released = ReleaseReply.parse(values);
            this.writers.watchOffer(released);
            this.engine.localWakeUps().wakeEveryone(channel());
            return released.removed();
        });
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
        return this.engine.commands().abandonRead(this.keys, owner, tombstoneMillis).thenApply((reply) -> {
            this.writers.watchOffer(reply);
            return reply;
        });
    }

}
