package dev.distlock.core.internal.protocol;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.distlock.core.internal.LockEngine;
import dev.distlock.core.internal.redis.LuaScript;
import dev.distlock.core.internal.scripts.AcquireArgs;
import dev.distlock.core.internal.scripts.ReleaseArgs;
import dev.distlock.core.internal.scripts.ReleaseMode;
import dev.distlock.core.internal.scripts.TakeArgs;
import dev.distlock.core.internal.scripts.UnlockArgs;
import dev.distlock.core.internal.scripts.UnlockTakenArgs;
import dev.distlock.core.internal.scripts.WriteReleaseArgs;
import io.lettuce.core.ScriptOutputType;
import org.jspecify.annotations.Nullable;

/**
 * The queued lock behind the reentrant lock, the fair lock and the members of a multi-lock: one key holding the owner
 * token, and a queue of waiters in Redis next to it. A waiter that must wait enqueues itself once; a release hands the
 * lock straight to the first live waiter and tells only that waiter's client, on the client's own wake channel for
 * the name, so the new holder needs no further round trip and nobody else wakes. An acquire that finds waiters queued
 * joins the queue instead of taking a free lock, so grants follow arrival order across all clients.
 *
 * <p>A handoff is an offer: the key holds the waiter's hold for a short time ({@code handoffOffer}) until the waiter
 * confirms it with a renewal to its lease, sent as soon as it hears of it. A waiter that died, froze or is cut off
 * does not confirm; its offer lapses and the releasing client passes the lock to the next live waiter
 * ({@link LapsedOffers}). A waiter whose deadline passed, or whose client does not listen (no subscriber of its wake
 * channel on the master, asked before anything is announced), is skipped at once, untold.
 */
public class QueuedProtocol implements HandoffProtocol {

    /**
     * Where a queued lock lives and which scripts run it.
     *
     * @param names the lock name's keys (fence key, tombstones)
     * @param lockKey the key holding the owner token
     * @param queueKey the list of waiters
     * @param acquire the acquire script (KEYS: lock, fence, queue, tombstone, then {@code extraKeys})
     * @param take the script that takes a free lock nobody queues for with the token left to the holder's request
     * (KEYS: lock, queue, tombstone), or null when this kind has none
     * @param unlock the script of an owner's plain release (KEYS: lock, queue, fence; ARGV: {@link UnlockArgs}), or
     * null when this kind releases with {@code release}
     * @param release the release script (KEYS: lock, fence, queue, tombstone or unused, then {@code extraKeys};
     * ARGV: {@link ReleaseArgs}, or {@link WriteReleaseArgs} with {@code readersChannel})
     * @param extraKeys keys both scripts take after the first four
     * @param readersChannel the readers' broadcast channel the write lock's release script takes, or null
     * @param plainTake whether a free lock is taken with a plain {@code SET NX} instead of {@code take}, which may take
     * it ahead of waiters queued while nobody held it (the reentrant lock; the fair lock never does)
     */
    record Layout(LockKeys names, String lockKey, String queueKey, LuaScript acquire, @Nullable LuaScript take,
            @Nullable LuaScript unlock, LuaScript release, List<String> extraKeys, @Nullable String readersChannel,
            boolean plainTake) {

        /** The reentrant lock's layout. */
        static Layout of(LockKeys names) {
            return new Layout(names, names.lockKey(), names.queueKey(), LuaScript.ACQUIRE, LuaScript.TAKE,
                    LuaScript.UNLOCK, LuaScript.RELEASE, List.of(), null, true);
        }

        /** The fair lock's: the same keys and scripts, and every attempt looks at the queue first. */
        static Layout fair(LockKeys names) {
            return new Layout(names, names.lockKey(), names.queueKey(), LuaScript.ACQUIRE, LuaScript.TAKE,
                    LuaScript.UNLOCK, LuaScript.RELEASE, List.of(), null, false);
        }

        String[] releaseArgv(ReleaseArgs args) {
            return (this.readersChannel == null) ? args.argv() : new WriteReleaseArgs(args, this.readersChannel).argv();
        }
    }

    /** How often one attempt asks again about another unminted hold in the way (each a different one). */
    private static final int MAX_SUSPECTS = 3;

    /** {@code unlock-taken.lua}'s answer for the caller's hold that a waiter changed: release it with unlock.lua. */
    private static final long UNLOCK_TAKEN_QUEUED = 2L;

    private final LockEngine engine;

    private final Layout layout;

    private final LockKeys keys;

    private final String queueKey;

    private final String wakeChannel;

    /** The key the client probes {@code DELIFEQ} / {@code DELEX} with: next to the lock's key, never written. */
    private final String deleteIfEqualsProbeKey;

    /** The reentrant lock of {@code keys}. */
    public QueuedProtocol(LockEngine engine, LockKeys keys) {
        this(engine, Layout.of(keys));
    }

    /** The fair lock of {@code keys}: the reentrant lock's keys and scripts, never taken ahead of a queued waiter. */
    public static QueuedProtocol fair(LockEngine engine, LockKeys keys) {
        return new QueuedProtocol(engine, Layout.fair(keys));
    }

    QueuedProtocol(LockEngine engine, Layout layout) {
        this.engine = engine;
        this.layout = layout;
        this.keys = layout.names();
        this.queueKey = layout.queueKey();
        this.wakeChannel = layout.lockKey() + ":h:" + engine.clientId();
        this.deleteIfEqualsProbeKey = layout.lockKey() + ":delifeq-probe";
    }

    @Override
    public String kind() {
        return "reentrant";
    }

    @Override
    public String lockName() {
        return this.keys.name();
    }

    @Override
    public String holdKey() {
        return this.layout.lockKey();
    }

    /** This client's wake channel for the name: handoffs to its waiters are announced here. */
    @Override
    public String channel() {
        return this.wakeChannel;
    }

    @Override
    public CompletableFuture<QueueReply> attempt(String owner, long leaseMillis, long waitMillis, String entry,
            boolean tokenOnDemand) {
        LuaScript take = this.layout.take();
        if (take == null || !tokenOnDemand || waitMillis != 0 || !entry.isEmpty()) {
            return fullAttempt(owner, leaseMillis, waitMillis, entry, take != null && tokenOnDemand, "");
        }
        long sentAt = System.nanoTime();
        LockCommands commands = this.engine.commands();
        if (this.layout.plainTake() && commands.mayTakePlain()) {
            return commands.setIfAbsent(this.layout.lockKey(), owner + "|", leaseMillis)
                .thenCompose((previous) -> afterPlainTake(previous, owner, leaseMillis, sentAt));
        }
        CompletableFuture<List<Object>> reply = commands.evalAcquire(take, lockName(),
                new String[] { this.layout.lockKey(), this.queueKey, this.keys.tombstoneKey(owner) },
                new TakeArgs(owner, leaseMillis).argv());
        return reply.thenCompose((values) -> (values.size() == 2)
                // Free, but waiters queue: the full script offers it to the first live one (or to this caller). Or
                // another owner's unminted hold, maybe a ghost: the full script, told its tombstone, decides.
                ? fullAttempt(owner, leaseMillis, 0, "", false, String.valueOf(values.get(1)))
                : CompletableFuture.completedFuture(QueueReply.parse(values, owner, leaseMillis, sentAt)));
    }

    /**
     * What the plain {@code SET lock owner| NX PX lease GET} of a free lock found: nothing (taken, token left to the
     * holder's request, as {@code take.lua}'s), the caller's own hold (a replay of this very command after a lost
     * reply: taken, with the key's expiry set by that first run, after {@code sentAt}), or another owner's hold. A hold
     * with its token minted or left to a handover ({@code owner|token}, {@code owner|-}) is a live holder's: refused
     * here. An unminted one ({@code owner|}) may be a ghost, a plain take replayed after its client abandoned it, which
     * no client holds: the full script removes it if its owner's tombstone says so, and answers.
     */
    private CompletableFuture<QueueReply> afterPlainTake(@Nullable String previous, String owner, long leaseMillis,
            long sentAt) {
        if (previous == null) {
            return CompletableFuture.completedFuture(
                    new QueueReply(new Grant(owner, Grant.UNMINTED, sentAt), -1, "", -1, sentAt, ""));
        }
        int separator = previous.lastIndexOf('|');
        String holder = (separator < 0) ? previous : previous.substring(0, separator);
        String token = (separator < 0) ? "0" : previous.substring(separator + 1);
        if (holder.equals(owner)) {
            return CompletableFuture.completedFuture(
                    new QueueReply(new Grant(owner, Grant.parseToken(token), sentAt), -1, "", -1, sentAt, ""));
        }
        if (token.isEmpty()) {
            return fullAttempt(owner, leaseMillis, 0, "", false, holder);
        }
        return CompletableFuture.completedFuture(new QueueReply(null, -1, "", -1, sentAt, holder));
    }

    /**
     * {@code acquire.lua}; with {@code tokenOnRequest} a hold handed over to the caller while it waits leaves its
     * token to the holder's request too (one command less per handoff: no mint in the release script). With a
     * {@code suspect} (another owner whose unminted hold {@code owner|} was in the way) the script is also given that
     * owner's tombstone, so it can tell a ghost (a plain take replayed after its client abandoned it) from a live hold;
     * a script that finds such a hold of an owner it was not told of says so, and is asked again, told of it.
     */
    private CompletableFuture<QueueReply> fullAttempt(String owner, long leaseMillis, long waitMillis, String entry,
            boolean tokenOnRequest, String suspect) {
        return fullAttempt(owner, leaseMillis, waitMillis, entry, tokenOnRequest, suspect, MAX_SUSPECTS);
    }

    private CompletableFuture<QueueReply> fullAttempt(String owner, long leaseMillis, long waitMillis, String entry,
            boolean tokenOnRequest, String suspect, int suspectsLeft) {
        long sentAt = System.nanoTime();
        LockCommands commands = this.engine.commands();
        String[] keys = keys(this.keys.tombstoneKey(owner));
        if (!suspect.isEmpty()) {
            keys = Arrays.copyOf(keys, keys.length + 1);
            keys[keys.length - 1] = this.keys.tombstoneKey(suspect);
        }
        CompletableFuture<List<Object>> reply = commands.evalAcquire(this.layout.acquire(), lockName(), keys,
                new AcquireArgs(owner, leaseMillis, commands.fenceRetentionMillis(), waitMillis, this.wakeChannel,
                        commands.publishCommand(), commands.countsListeners(), entry,
                        AcquireArgs.offer(commands.offerMillis(), leaseMillis, tokenOnRequest)).argv());
        return reply.thenCompose((values) -> {
            if (values.size() != 2) {
                return CompletableFuture.completedFuture(QueueReply.parse(values, owner, leaseMillis, sentAt));
            }
            String holder = String.valueOf(values.get(1));
            if (suspectsLeft == 0) {
                // Holders that change between every two calls: refused, as by a holder (a waiter checks again).
                return CompletableFuture.completedFuture(new QueueReply(null, -1, entry, -1, sentAt, holder));
            }
            return fullAttempt(owner, leaseMillis, waitMillis, entry, tokenOnRequest, holder, suspectsLeft - 1);
        });
    }

    @Override
    public CompletableFuture<Long> mintToken(String owner) {
        return this.engine.commands().mintToken(this.layout.lockKey(), this.keys.fenceKey(), owner);
    }

    @Override
    public CompletableFuture<Boolean> renew(String owner, long leaseMillis) {
        return this.engine.commands().renewOwnedKey(this.layout.lockKey(), owner, leaseMillis);
    }

    @Override
    public CompletableFuture<Boolean> confirm(String owner, long leaseMillis) {
        return this.engine.commands().confirmOffer(lockName(), this.layout.lockKey(), owner, leaseMillis);
    }

    /** Offers the lock to the next live waiter if nobody holds it (an offer lapsed). */
    CompletableFuture<ReleaseReply> passOn() {
        return script(ReleaseMode.PASS, "", this.keys.unusedKey(), "").thenApply(ReleaseReply::parse);
    }

    /** Looks after an offer a release script reported: see LapsedOffers. */
    void watchOffer(ReleaseReply reply) {
        this.engine.commands().lapsedOffers().watch(this.engine, lockName(), this.layout.lockKey(),
                reply.offeredTo(), reply.offerMillis(), this::passOn);
    }

    @Override
    public CompletableFuture<Boolean> release(String owner) {
        LuaScript unlock = this.layout.unlock();
        if (unlock == null) {
            return run(ReleaseMode.RELEASE, owner, this.keys.unusedKey(), "");
        }
        LockCommands commands = this.engine.commands();
        return settled(commands.eval(unlock, ScriptOutputType.MULTI,
                new String[] { this.layout.lockKey(), this.queueKey, this.keys.fenceKey() },
                new UnlockArgs(owner, commands.fenceRetentionMillis(), commands.publishCommand(),
                        commands.countsListeners()).argv()));
    }

    /**
     * A hold {@code take.lua} wrote ({@code owner|}) is deleted by a compare-and-delete of that exact value, which
     * looks at no queue: a waiter that queues behind it mints the holder's token into it first, so then the compare
     * misses, touches nothing, and the full release hands over (one round trip more, only when contention begins).
     * The compare-and-delete is the server's own where it has one ({@code DELIFEQ} on Valkey 9, {@code DELEX ... IFEQ}
     * on Redis 8.4), else a script; the client probes the server for it on the side of its first such release, which
     * runs the script. With a waiter of this client queued behind the hold, the compare would miss: the release hands
     * over at once, in one round trip.
     */
    @Override
    public CompletableFuture<Boolean> releaseUnminted(String owner) {
        if (this.layout.take() == null || this.layout.unlock() == null
                || this.engine.queuedLocally(this.wakeChannel)) {
            return release(owner);
        }
        LockCommands commands = this.engine.commands();
        if (!commands.mayDeleteIfEquals(this.deleteIfEqualsProbeKey)) {
            return unlockTaken(owner);
        }
        return commands.deleteIfEquals(this.layout.lockKey(), owner + "|").thenCompose((deleted) -> {
            if (deleted == null) {
                // The server refused its compare-and-delete (e.g. a failover to an older one): learned, the script
                // from now on.
                return unlockTaken(owner);
            }
            // Not deleted: a waiter changed the hold (release with handoff), or it is not ours (release says so).
            return deleted ? CompletableFuture.completedFuture(true) : release(owner);
        });
    }

    private CompletableFuture<Boolean> unlockTaken(String owner) {
        CompletableFuture<Long> reply = this.engine.commands().eval(LuaScript.UNLOCK_TAKEN, ScriptOutputType.INTEGER,
                new String[] { this.layout.lockKey() }, new UnlockTakenArgs(owner).argv());
        return reply.thenCompose((status) -> (status == UNLOCK_TAKEN_QUEUED) ? release(owner)
                : CompletableFuture.completedFuture(status == 1L));
    }

    @Override
    public CompletableFuture<Boolean> leave(String owner, String entry) {
        return run(ReleaseMode.LEAVE, owner, this.keys.unusedKey(), entry);
    }

    @Override
    public CompletableFuture<?> abandon(String owner, long tombstoneMillis) {
        return run(ReleaseMode.ABANDON, owner, this.keys.tombstoneKey(owner), Long.toString(tombstoneMillis));
    }

    @Override
    public CompletableFuture<Boolean> forceRelease() {
        return run(ReleaseMode.FORCE, "", this.keys.unusedKey(), "");
    }

    @Override
    public CompletableFuture<Boolean> isLocked() {
        return this.engine.commands().exists(this.layout.lockKey());
    }

    private CompletableFuture<Boolean> run(ReleaseMode mode, String owner, String fourthKey, String modeArgument) {
        return settled(script(mode, owner, fourthKey, modeArgument));
    }

    /**
     * Whether the release script removed a hold. The caller learns it before the offer it made is looked after: the
     * dependent registered last runs first.
     */
    private CompletableFuture<Boolean> settled(CompletableFuture<List<Object>> values) {
        CompletableFuture<ReleaseReply> reply = values.thenApply(ReleaseReply::parse);
        reply.thenAccept(this::watchOffer);
        return reply.thenApply(ReleaseReply::removed);
    }

    private CompletableFuture<List<Object>> script(ReleaseMode mode, String owner, String fourthKey,
            String modeArgument) {
        LockCommands commands = this.engine.commands();
        ReleaseArgs args = new ReleaseArgs(mode, owner, commands.fenceRetentionMillis(), commands.publishCommand(),
                commands.countsListeners(), modeArgument);
        return commands.eval(this.layout.release(), ScriptOutputType.MULTI, keys(fourthKey),
                this.layout.releaseArgv(args));
    }

    private String[] keys(String fourthKey) {
        List<String> all = new ArrayList<>(List.of(this.layout.lockKey(), this.keys.fenceKey(), this.queueKey,
                fourthKey));
        all.addAll(this.layout.extraKeys());
        return all.toArray(String[]::new);
    }

    LockEngine engine() {
        return this.engine;
    }
}
