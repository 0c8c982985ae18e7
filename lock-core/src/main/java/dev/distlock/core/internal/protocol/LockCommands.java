package dev.distlock.core.internal.protocol;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.ReplicaAckPolicy;
import dev.distlock.core.internal.redis.LuaScript;
import dev.distlock.core.internal.redis.RedisGateway;
import dev.distlock.core.internal.scripts.MintArgs;
import dev.distlock.core.internal.scripts.ReadAbandonArgs;
import dev.distlock.core.internal.scripts.RenewArgs;
import dev.distlock.core.internal.time.DurationFormat;
import io.lettuce.core.ScriptOutputType;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lock scripts as calls on Redis: each with the operation timeout, acquire scripts with the configured replica
 * acknowledgement, and the arguments every script shares (fencing, how a handoff is announced).
 */
public final class LockCommands {

    private static final Logger logger = LoggerFactory.getLogger(LockCommands.class);

    private final RedisGateway gateway;

    private final LockClientOptions options;

    private final OperationTimeouts timeouts;

    private final LapsedOffers lapsedOffers;

    public LockCommands(RedisGateway gateway, LockClientOptions options, Executor completionExecutor) {
        this.gateway = gateway;
        this.options = options;
        this.timeouts = new OperationTimeouts(gateway.timer(), options.operationTimeout().toNanos(),
                completionExecutor);
        this.lapsedOffers = new LapsedOffers(gateway.timer(), completionExecutor);
    }

    /** The fencing argument of the scripts that mint: counter retention in ms, or 0 when fencing is off. */
    public long fenceRetentionMillis() {
        return this.options.fencing() ? this.options.fencingCounterRetention().toMillis() : 0;
    }

    /** How long a handoff stays offered to a waiter unless it confirms it, in ms (ARGV of the acquire scripts). */
    long offerMillis() {
        return this.options.handoffOffer().toMillis();
    }

    /** The command the queued-lock scripts announce a handoff with ({@code publish}, or {@code spublish}). */
    String publishCommand() {
        return this.gateway.publishCommand();
    }

    /** Whether the server's subscriber count of a wake channel proves the waiter's client listens (else skipped). */
    boolean countsListeners() {
        return this.gateway.publishCountsListeners();
    }

    /**
     * Runs the read lock's abandon script: tombstone for {@code owner}, then removes any read hold it got, handing the
     * lock to a queued writer when that was the last. See {@link ReleaseReply}.
     */
    CompletableFuture<ReleaseReply> abandonRead(ReadWriteKeys keys, String owner, long tombstoneMillis) {
        LockKeys names = keys.names();
        CompletableFuture<List<Object>> reply = eval(LuaScript.READ_ABANDON, ScriptOutputType.MULTI,
                new String[] { names.tombstoneKey(owner), keys.readersKey(), keys.writeKey(), names.fenceKey(),
                        keys.writerQueueKey() },
                new ReadAbandonArgs(owner, tombstoneMillis, names.channel(), fenceRetentionMillis(), publishCommand(),
                        countsListeners()).argv());
        return reply.thenApply(ReleaseReply::parse);
    }

    /** Stops looking after the offers this client made: it is closing. */
    public void close() {
        this.lapsedOffers.close();
    }

    /** Looks after the handoff offers this client made (see {@link LapsedOffers}). */
    LapsedOffers lapsedOffers() {
        return this.lapsedOffers;
    }

    /** Runs a script with the operation timeout. */
    public <T> CompletableFuture<T> eval(LuaScript script, ScriptOutputType type, String[] keys, String... args) {
        return withCommandTimeout(this.gateway.<T>eval(script, type, keys, args));
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
            if (granted(values)) {
                checkAcknowledged(lockName, acknowledged.replicas());
            }
            return values;
        }));
    }

    private void checkAcknowledged(String lockName, long replicas) {
        int required = this.options.replicaAcks();
        if (replicas >= required) {
            return;
        }
        String message = "Lock '" + lockName + "' was granted but only " + replicas + " of " + required
                + " required replicas acknowledged it within " + DurationFormat.format(this.options.replicaAckTimeout())
                + "; a failover now could hand it to someone else";
        if (this.options.replicaAckPolicy() == ReplicaAckPolicy.FAIL) {
            throw new ReplicaAckException(lockName, message + ". The grant is being released.");
        }
        logger.warn(message);
    }

    /**
     * Confirms a handoff offer: an owner-checked extension of the key to the full lease, with the same replica
     * acknowledgement as a direct grant ({@link #evalAcquire}). True when the offer was still the owner's.
     */
    CompletableFuture<Boolean> confirmOffer(String lockName, String key, String owner, long leaseMillis) {
        int required = this.options.replicaAcks();
        if (required == 0) {
            return renewOwnedKey(key, owner, leaseMillis);
        }
        CompletableFuture<RedisGateway.Acknowledged<Long>> reply = this.gateway.evalAcknowledged(LuaScript.RENEW,
                ScriptOutputType.INTEGER, new String[] { key }, required, this.options.replicaAckTimeout().toMillis(),
                new RenewArgs(owner, leaseMillis).argv());
        return withTimeout(reply.thenApply((acknowledged) -> {
            boolean confirmed = acknowledged.reply() == 1L;
            if (confirmed) {
                checkAcknowledged(lockName, acknowledged.replicas());
            }
            return confirmed;
        }));
    }

    /** Owner-checked extend ({@code leaseMillis > 0}) or check ({@code 0}) of a string lock key. */
    CompletableFuture<Boolean> renewOwnedKey(String key, String owner, long leaseMillis) {
        CompletableFuture<Long> reply = eval(LuaScript.RENEW, ScriptOutputType.INTEGER, new String[] { key },
                new RenewArgs(owner, leaseMillis).argv());
        return reply.thenApply((owned) -> owned == 1L);
    }

    /**
     * Mints the fencing token of {@code owner}'s hold on {@code key} if it has none yet (mint.lua). Completes with the
     * token, or with -1 when {@code owner} does not hold the key.
     */
    CompletableFuture<Long> mintToken(String key, String fenceKey, String owner) {
        CompletableFuture<List<Object>> reply = eval(LuaScript.MINT, ScriptOutputType.MULTI,
                new String[] { key, fenceKey }, new MintArgs(owner, fenceRetentionMillis()).argv());
        return reply.thenApply((values) -> (toLong(values.get(0)) == 1) ? toLong(values.get(1)) : -1L);
    }

    /** Whether {@link #deleteIfEquals} may be used: see {@link RedisGateway#mayDeleteIfEquals}. */
    boolean mayDeleteIfEquals(String probeKey) {
        return this.gateway.mayDeleteIfEquals(probeKey);
    }

    /** The server's compare-and-delete: see {@link RedisGateway#deleteIfEquals}; null when it refused the command. */
    CompletableFuture<@Nullable Boolean> deleteIfEquals(String key, String value) {
        return withCommandTimeout(this.gateway.deleteIfEquals(key, value));
    }

    /**
     * Whether a free queued lock may be taken by a plain {@code SET NX} ({@link #setIfAbsent}): not when grants wait
     * for replica acknowledgement, which a script call on its dedicated connection does.
     */
    boolean mayTakePlain() {
        return this.options.replicaAcks() == 0;
    }

    /** See {@link RedisGateway#setIfAbsent}. */
    CompletableFuture<@Nullable String> setIfAbsent(String key, String value, long pxMillis) {
        return withCommandTimeout(this.gateway.setIfAbsent(key, value, pxMillis));
    }

    CompletableFuture<Boolean> exists(String key) {
        return withCommandTimeout(this.gateway.exists(key));
    }

    /** A call of several commands (a script and the {@code WAIT} after it): timed as a whole. */
    private <T> CompletableFuture<T> withTimeout(CompletableFuture<T> reply) {
        return this.timeouts.apply(reply);
    }

    /**
     * A call of one command: where the Lettuce client fails the gateway's commands after the operation timeout itself
     * ({@link RedisGateway#timesOutCommands()}), a timer of ours would only double the work of every call.
     */
    private <T> CompletableFuture<T> withCommandTimeout(CompletableFuture<T> reply) {
        return this.gateway.timesOutCommands() ? reply : this.timeouts.apply(reply);
    }

    /** Parses a script reply element that Redis sent as an integer or a string. */
    public static long toLong(Object value) {
        if (value instanceof Long number) {
            return number;
        }
        return Long.parseLong(String.valueOf(value));
    }

    /** Whether an acquire script's reply is a grant: {@code {1, ...}}, or the queued lock's uncontended lease alone. */
    static boolean granted(List<Object> reply) {
        return reply.size() == 1 || toLong(reply.get(0)) == 1;
    }

    /** Parses the {@code {status, value}} reply of the acquire scripts. */
    static AttemptResult attemptResult(List<Object> reply, String owner, long sentAtNanos) {
        long status = toLong(reply.get(0));
        long value = toLong(reply.get(1));
        return (status == 1) ? new AttemptResult(new Grant(owner, value, sentAtNanos), -1)
                : new AttemptResult(null, value);
    }

}
