package dev.distlock.core.internal;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.ScriptOutputType;

/**
 * The queued lock behind the reentrant lock, the fair lock and the members of a multi-lock: one key holding the owner
 * token, and a queue of waiters in Redis next to it. A waiter that must wait enqueues itself once; a release hands the
 * lock straight to the first live waiter and tells only that waiter's client, on the client's own wake channel for
 * the name, so the new holder needs no further round trip and nobody else wakes. An acquire that finds waiters queued
 * joins the queue instead of taking a free lock, so grants follow arrival order across all clients.
 *
 * <p>A queued waiter is live while its wait deadline has not passed and its client hears the announcement (the publish
 * reaches at least one subscriber). On Redis Cluster the receiver count does not prove that, so there only the
 * deadline and the client's own check (an announcement for an owner nobody waits for is released at once) apply.
 */
final class QueuedProtocol implements LockProtocol {

    private final LockEngine engine;

    private final LockKeys keys;

    private final String queueKey;

    private final String wakeChannel;

    QueuedProtocol(LockEngine engine, LockKeys keys) {
        this.engine = engine;
        this.keys = keys;
        this.queueKey = keys.queueKey();
        this.wakeChannel = keys.lockKey() + ":h:" + engine.clientId();
    }

    @Override
    public String lockName() {
        return this.keys.name();
    }

    @Override
    public String holdKey() {
        return this.keys.lockKey();
    }

    /** This client's wake channel for the name: handoffs to its waiters are announced here. */
    @Override
    public String channel() {
        return this.wakeChannel;
    }

    @Override
    public boolean singleRacer() {
        return false;
    }

    /** A single attempt, for callers that do not queue. */
    @Override
    public CompletableFuture<AttemptResult> attempt(String owner, long leaseMillis, String context,
            boolean willWait) {
        return attempt(owner, leaseMillis, 0, "").thenApply((reply) -> new AttemptResult(reply.grant(),
                reply.holderPttlMillis()));
    }

    /**
     * One acquire attempt. With {@code waitMillis > 0} a refused caller is queued (or, with its {@code entry} from an
     * earlier reply, keeps its place and learns where it stands); with 0 it never queues.
     */
    CompletableFuture<QueueReply> attempt(String owner, long leaseMillis, long waitMillis, String entry) {
        long sentAt = System.nanoTime();
        CompletableFuture<List<Object>> reply = this.engine.evalAcquire(LuaScript.ACQUIRE, lockName(),
                new String[] { this.keys.lockKey(), this.keys.fenceKey(), this.queueKey,
                        this.keys.tombstoneKey(owner) },
                owner, Long.toString(leaseMillis), this.engine.fencingArgument(), Long.toString(waitMillis),
                this.wakeChannel, this.engine.publishCommand(), this.engine.listenerCountArgument(), entry);
        return reply.thenApply((values) -> QueueReply.parse(values, owner, leaseMillis, sentAt));
    }

    @Override
    public CompletableFuture<Boolean> renew(String owner, long leaseMillis) {
        return this.engine.renewOwnedKey(this.keys.lockKey(), owner, leaseMillis);
    }

    @Override
    public CompletableFuture<Boolean> release(String owner) {
        return run("release", owner, this.keys.unusedKey(), "");
    }

    /** A waiter gives up: removes its entry, and releases the lock if it was handed over meanwhile. */
    CompletableFuture<Boolean> leave(String owner, String entry) {
        return run("leave", owner, this.keys.unusedKey(), entry);
    }

    @Override
    public CompletableFuture<?> abandon(String owner, long tombstoneMillis) {
        return run("abandon", owner, this.keys.tombstoneKey(owner), Long.toString(tombstoneMillis));
    }

    @Override
    public CompletableFuture<Boolean> forceRelease() {
        return run("force", "", this.keys.unusedKey(), "");
    }

    @Override
    public CompletableFuture<Boolean> isLocked() {
        return this.engine.exists(this.keys.lockKey());
    }

    @Override
    public void leaveQueue(String owner) {
        // Queued acquisitions leave with their entry (see QueuedAcquisition); nothing is queued under a bare owner.
    }

    private CompletableFuture<Boolean> run(String mode, String owner, String fourthKey, String extra) {
        CompletableFuture<List<Object>> reply = this.engine.eval(LuaScript.RELEASE, ScriptOutputType.MULTI,
                new String[] { this.keys.lockKey(), this.keys.fenceKey(), this.queueKey, fourthKey }, mode, owner,
                this.engine.fencingArgument(), this.engine.publishCommand(), this.engine.listenerCountArgument(),
                extra);
        return reply.thenApply((values) -> LockEngine.toLong(values.get(0)) == 1L);
    }
}
