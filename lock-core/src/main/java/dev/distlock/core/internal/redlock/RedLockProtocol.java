package dev.distlock.core.internal.redlock;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.distlock.core.LockOperationException;
import dev.distlock.core.internal.LockEngine;
import dev.distlock.core.internal.protocol.AttemptResult;
import dev.distlock.core.internal.protocol.LockKeys;
import dev.distlock.core.internal.protocol.RacingProtocol;
import dev.distlock.core.internal.redis.LuaScript;
import dev.distlock.core.internal.scripts.RedLockAbandonArgs;
import dev.distlock.core.internal.scripts.RedLockFenceArgs;
import dev.distlock.core.internal.scripts.RedLockForceReleaseArgs;
import dev.distlock.core.internal.scripts.RedLockReleaseArgs;
import dev.distlock.core.internal.scripts.RenewArgs;
import io.lettuce.core.ScriptOutputType;
import org.jspecify.annotations.Nullable;

/**
 * The Redis distributed-lock algorithm (RedLock) over N independent masters, with its own scripts
 * ({@code redlock-*.lua}).
 *
 * <ul>
 * <li>Acquire: each attempt of an acquisition has an owner token of its own; see {@link RedLockAttempt} for the two
 * rounds (lock, then fencing token written back to a majority) and the clean-up of a failed attempt.</li>
 * <li>Waiting: an acquisition that will wait registers on each node (a waiters set with deadlines); while registered
 * acquisitions wait, a fresh one is refused (no barging: a releaser that re-acquires at once joins the waiters). A
 * release publishes the released owner token on every node where it deleted the key and someone waits; the client
 * subscribes on every node ({@link RedLockSubscriptions}), so a release wakes its waiters unless every node's message
 * is lost, and then the back-off bounds the wait.</li>
 * <li>Renew and release decide as soon as the answers allow: renewal holds while a majority renews and fails (LOST)
 * when a majority refuses; release returns true once the key is gone from a majority, false when a majority never
 * had it, and fails with an unknown outcome otherwise (the caller then retries it in the background).</li>
 * </ul>
 */
final class RedLockProtocol implements RacingProtocol {

    /** Separates an acquisition's owner token from its attempt number in the attempt owner token. */
    static final String ATTEMPT_SEPARATOR = "/";

    /** The keys of one RedLock on every node. */
    record Keys(LockKeys lockKeys, String waiters) {

        String lock() {
            return this.lockKeys.lockKey();
        }

        String fence() {
            return this.lockKeys.fenceKey();
        }

        String tombstone(String owner) {
            return this.lockKeys.tombstoneKey(owner);
        }
    }

    private final LockEngine engine;

    private final RedLockNodes nodes;

    private final Keys keys;

    private final String channel;

    private final AtomicLong attempts = new AtomicLong();

    RedLockProtocol(LockEngine engine, RedLockNodes nodes, LockKeys keys) {
        this.engine = engine;
        this.nodes = nodes;
        this.keys = new Keys(keys, keys.lockKey() + ":redlock-waiters");
        // Under the key prefix like every other key and channel, so one ACL channel pattern covers the locks.
        this.channel = keys.channel() + ":redlock";
    }

    Keys redKeys() {
        return this.keys;
    }

    @Override
    public String kind() {
        return "redlock";
    }

    @Override
    public String lockName() {
        return this.keys.lockKeys().name();
    }

    @Override
    public String holdKey() {
        return "redlock:" + this.keys.lock();
    }

    @Override
    public String channel() {
        return this.channel;
    }

    @Override
    public boolean singleRacer() {
        return true;
    }

    /**
     * How long a waiter's registration lives on a node without being refreshed by an attempt: longer than a
     * waiter's longest sleep between attempts, short enough that a dead waiter stops holding fresh acquisitions
     * back soon.
     */
    long waiterEntryMillis() {
        return 3 * this.engine.options().maxBackoff().toMillis() + TimeUnit.NANOSECONDS.toMillis(this.nodes
            .timeoutNanos());
    }

    long fenceRetentionMillis() {
        return this.engine.options().fencingCounterRetention().toMillis();
    }

    @Override
    public CompletableFuture<AttemptResult> attempt(String owner, long leaseMillis, String context,
            boolean willWait) {
        String attemptOwner = owner + ATTEMPT_SEPARATOR + this.attempts.incrementAndGet();
        return new RedLockAttempt(this, this.nodes, attemptOwner, owner, leaseMillis, willWait).run();
    }

    @Override
    public CompletableFuture<Boolean> renew(String owner, long leaseMillis) {
        List<CompletableFuture<Long>> replies = this.nodes.callAll(LuaScript.RENEW, ScriptOutputType.INTEGER,
                new String[] { this.keys.lock() }, (Long value) -> value, -1L,
                new RenewArgs(owner, leaseMillis).argv());
        int quorum = this.nodes.quorum();
        int tolerated = this.nodes.size() - quorum;
        return RedLockNodes.gather(replies, (snapshot) -> count(snapshot, 1L) >= quorum
                || count(snapshot, 0L) > tolerated).thenCompose((snapshot) -> {
                    int renewed = count(snapshot, 1L);
                    int refused = count(snapshot, 0L);
                    if (renewed >= quorum) {
                        return CompletableFuture.completedFuture(true);
                    }
                    if (refused > tolerated) {
                        return CompletableFuture.completedFuture(false);
                    }
                    // Too many nodes unreachable to decide: retried at the next tick while the validity lasts.
                    return CompletableFuture.failedFuture(undecided("renewed", renewed, refused));
                });
    }

    @Override
    public CompletableFuture<Boolean> release(String owner) {
        List<CompletableFuture<Long>> replies = this.nodes.callAll(LuaScript.REDLOCK_RELEASE,
                ScriptOutputType.INTEGER, new String[] { this.keys.lock(), this.keys.waiters() }, (Long value) -> value,
                -1L, new RedLockReleaseArgs(owner, this.channel, true).argv());
        int quorum = this.nodes.quorum();
        return RedLockNodes.gather(replies, (snapshot) -> releaseOutcome(snapshot, quorum) != null)
            .thenCompose((snapshot) -> {
                Boolean outcome = releaseOutcome(snapshot, quorum);
                if (outcome != null) {
                    return CompletableFuture.completedFuture(outcome);
                }
                // Neither deleted from a majority nor missing from one: the outcome is unknown. Failing lets the
                // caller retry the release in the background instead of calling the lock lost.
                return CompletableFuture.failedFuture(undecided("released", count(snapshot, 1L),
                        count(snapshot, 0L)));
            });
    }

    /**
     * True once the key is ours on no majority any more and we deleted it somewhere; false once a majority answered
     * that it was not ours; null while undecided.
     */
    private static @Nullable Boolean releaseOutcome(List<@Nullable Long> snapshot, int quorum) {
        int deleted = count(snapshot, 1L);
        int notOurs = count(snapshot, 0L);
        if (deleted > 0 && deleted + notOurs >= quorum) {
            return true;
        }
        if (deleted == 0 && notOurs >= quorum) {
            return false;
        }
        return null;
    }

    /** Owner-checked release on one node, for the clean-up of an attempt; {@code publish} wakes waiters. */
    void releaseOnNode(int node, String owner, boolean publish) {
        CompletableFuture<Long> reply = this.nodes.call(node, LuaScript.REDLOCK_RELEASE, ScriptOutputType.INTEGER,
                new String[] { this.keys.lock(), this.keys.waiters() },
                new RedLockReleaseArgs(owner, this.channel, publish).argv());
        this.engine.cleanup().quietly(lockName(), owner, reply);
    }

    /** Tombstone for {@code owner} on one node, plus the owner-checked delete of its grant there. */
    CompletableFuture<Long> abandonOnNode(int node, String owner, String acquisition, long tombstoneMillis) {
        return this.nodes.call(node, LuaScript.REDLOCK_ABANDON, ScriptOutputType.INTEGER,
                new String[] { this.keys.tombstone(owner), this.keys.lock(), this.keys.waiters() },
                new RedLockAbandonArgs(owner, Math.max(tombstoneMillis, 1), acquisition).argv());
    }

    /** Takes an acquisition off the waiters set of every node; failures only logged (entries have deadlines). */
    void leaveWaiters(String acquisition) {
        for (int node = 0; node < this.nodes.size(); node++) {
            CompletableFuture<Object> reply = this.nodes.call(node, LuaScript.REDLOCK_FENCE, ScriptOutputType.MULTI,
                    new String[] { this.keys.fence(), this.keys.waiters() },
                    new RedLockFenceArgs(0, fenceRetentionMillis(), acquisition).argv());
            this.engine.cleanup().quietly(lockName(), acquisition, reply);
        }
    }

    @Override
    public void leaveQueue(String owner) {
        leaveWaiters(owner);
    }

    /**
     * Abandons a whole acquisition (called by the engine for an outcome it does not know): a tombstone for the
     * acquisition's owner, which refuses every attempt of it, on every node; succeeds only when every node took it,
     * so the engine retries while a node is unreachable.
     */
    @Override
    public CompletableFuture<?> abandon(String owner, long tombstoneMillis) {
        CompletableFuture<?>[] replies = new CompletableFuture<?>[this.nodes.size()];
        for (int node = 0; node < replies.length; node++) {
            replies[node] = abandonOnNode(node, owner, owner, tombstoneMillis);
        }
        return CompletableFuture.allOf(replies);
    }

    @Override
    public CompletableFuture<Boolean> isLocked() {
        List<CompletableFuture<Boolean>> replies = this.nodes.existsAll(this.keys.lock());
        int quorum = this.nodes.quorum();
        return RedLockNodes.gather(replies, (snapshot) -> snapshot.stream().filter(Boolean.TRUE::equals)
            .count() >= quorum)
            .thenApply((snapshot) -> snapshot.stream().filter(Boolean.TRUE::equals).count() >= quorum);
    }

    @Override
    public CompletableFuture<Boolean> forceRelease() {
        List<CompletableFuture<Long>> replies = this.nodes.callAll(LuaScript.REDLOCK_FORCE_RELEASE,
                ScriptOutputType.INTEGER, new String[] { this.keys.lock(), this.keys.waiters() }, (Long value) -> value,
                0L, new RedLockForceReleaseArgs(this.channel).argv());
        return RedLockNodes.gather(replies, (snapshot) -> false)
            .thenApply((snapshot) -> count(snapshot, 1L) > 0);
    }

    private LockOperationException undecided(String what, int yes, int no) {
        int unanswered = this.nodes.size() - yes - no;
        return new LockOperationException(lockName(), "Lock '" + lockName() + "': only " + yes + " of "
                + this.nodes.size() + " RedLock nodes " + what + " and " + no + " refused; " + unanswered
                + " did not answer within the node timeout, so the outcome is unknown", null);
    }

    private static int count(List<@Nullable Long> snapshot, long value) {
        int count = 0;
        for (Long reply : snapshot) {
            count += (reply != null && reply == value) ? 1 : 0;
        }
        return count;
    }
}
