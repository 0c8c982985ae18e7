package dev.distlock.core.internal.redlock;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.internal.protocol.AttemptResult;
import dev.distlock.core.internal.protocol.Grant;
import dev.distlock.core.internal.protocol.LockCommands;
import dev.distlock.core.internal.redis.LuaScript;
import dev.distlock.core.internal.scripts.RedLockAcquireArgs;
import dev.distlock.core.internal.scripts.RedLockFenceArgs;
import io.lettuce.core.ScriptOutputType;
import org.jspecify.annotations.Nullable;

/**
 * One attempt of a RedLock acquisition, under an owner token of its own ({@code <acquisition>/<n>}), so that an
 * attempt abandoned for good never blocks the acquisition's next attempt.
 *
 * <p>Round 1 sends {@code redlock-acquire} to every node and decides as soon as a majority granted or can no longer
 * grant. Round 2 (fencing on, or the acquisition registered as a waiter) sends {@code redlock-fence}: the token
 * {@code max(round-1 fences of the granting nodes) + 1} is written to every node that stores a smaller one, and the
 * attempt succeeds once a majority accepted it; a node that already stores a token at least as large refuses, and the
 * round is repeated with a larger token. That write-back is what makes tokens increase from one holder to the next
 * (see docs/lock-kinds.md, "RedLock fencing tokens"). The grant is handed out only if the validity is still positive
 * after both rounds.
 *
 * <p>A failed attempt is cleaned up node by node as replies arrive: a node that granted is released (owner-checked),
 * a node that did not answer gets a tombstone for this attempt's owner (it may still execute the request late), and
 * retried on that node alone until the lease could have ended.
 */
final class RedLockAttempt {

    private static final int MAX_FENCE_ROUNDS = 4;

    enum Status { GRANTED, HELD, QUEUED, TOMBSTONED, NO_ANSWER }

    /** One node's answer to round 1. {@code value}: the fence when granted, the holder's PTTL when held. */
    record NodeReply(Status status, long value, @Nullable String holder) {

        static final NodeReply NO_ANSWER = new NodeReply(Status.NO_ANSWER, -1, null);

        static NodeReply parse(List<Object> reply) {
            long status = LockCommands.toLong(reply.get(0));
            long value = LockCommands.toLong(reply.get(1));
            if (status == 1) {
                return new NodeReply(Status.GRANTED, value, null);
            }
            if (status == 0) {
                return new NodeReply(Status.HELD, value, (reply.size() > 2) ? String.valueOf(reply.get(2)) : null);
            }
            return new NodeReply((status == 2) ? Status.QUEUED : Status.TOMBSTONED, value, null);
        }
    }

    /** One node's answer to round 2: whether it took the token, else the larger token it stores. */
    private record FenceReply(boolean accepted, long stored, boolean answered) {

        static final FenceReply NO_ANSWER = new FenceReply(false, -1, false);

        static FenceReply parse(List<Object> reply) {
            return new FenceReply(LockCommands.toLong(reply.get(0)) == 1, LockCommands.toLong(reply.get(1)), true);
        }
    }

    private final RedLockProtocol protocol;

    private final RedLockNodes nodes;

    private final String owner;

    private final String acquisition;

    private final long leaseMillis;

    private final boolean willWait;

    private final boolean fencing;

    private long sentAtNanos;

    RedLockAttempt(RedLockProtocol protocol, RedLockNodes nodes, String owner, String acquisition, long leaseMillis,
            boolean willWait) {
        this.protocol = protocol;
        this.nodes = nodes;
        this.owner = owner;
        this.acquisition = acquisition;
        this.leaseMillis = leaseMillis;
        this.willWait = willWait;
        this.fencing = nodes.engine().commands().fenceRetentionMillis() > 0;
    }

    CompletableFuture<AttemptResult> run() {
        RedLockProtocol.Keys keys = this.protocol.redKeys();
        this.sentAtNanos = System.nanoTime();
        List<CompletableFuture<NodeReply>> replies = this.nodes.callAll(LuaScript.REDLOCK_ACQUIRE,
                ScriptOutputType.MULTI, new String[] { keys.lock(), keys.fence(), keys.waiters(),
                    keys.tombstone(this.acquisition), keys.tombstone(this.owner) },
                NodeReply::parse, NodeReply.NO_ANSWER, new RedLockAcquireArgs(this.owner, this.leaseMillis,
                        this.fencing, this.acquisition, this.willWait ? this.protocol.waiterEntryMillis() : 0).argv());
        return RedLockNodes.gather(replies, this::decided).thenCompose((snapshot) -> {
            if (count(snapshot, Status.GRANTED) < this.nodes.quorum()) {
                giveUp(replies);
                return CompletableFuture.completedFuture(refused(snapshot));
            }
            long proposal = 0;
            for (NodeReply reply : snapshot) {
                if (reply != null && reply.status() == Status.GRANTED) {
                    proposal = Math.max(proposal, reply.value() + 1);
                }
            }
            return secondRound(proposal).thenApply((token) -> {
                long validityNanos = TimeUnit.MILLISECONDS.toNanos(this.leaseMillis)
                        - (System.nanoTime() - this.sentAtNanos) - Grant.driftNanos(this.leaseMillis);
                if (token == null || validityNanos <= 0) {
                    giveUp(replies);
                    return new AttemptResult(null, -1);
                }
                return new AttemptResult(new Grant(this.owner, token, this.sentAtNanos), -1);
            });
        });
    }

    /** Round 1 is decided once a majority granted, or once too many nodes refused or failed for a majority. */
    private boolean decided(List<@Nullable NodeReply> snapshot) {
        int granted = count(snapshot, Status.GRANTED);
        int answeredOtherwise = 0;
        for (NodeReply reply : snapshot) {
            answeredOtherwise += (reply != null && reply.status() != Status.GRANTED) ? 1 : 0;
        }
        return granted >= this.nodes.quorum() || answeredOtherwise > this.nodes.size() - this.nodes.quorum();
    }

    /** Writes the fencing token (and leaves the waiters set); the token written to a majority, or null. */
    private CompletableFuture<@Nullable Long> secondRound(long proposal) {
        if (!this.fencing) {
            if (this.willWait) {
                this.protocol.leaveWaiters(this.acquisition);
            }
            return CompletableFuture.completedFuture(0L);
        }
        return fenceRound(proposal, 1);
    }

    private CompletableFuture<@Nullable Long> fenceRound(long token, int round) {
        RedLockProtocol.Keys keys = this.protocol.redKeys();
        List<CompletableFuture<FenceReply>> replies = this.nodes.callAll(LuaScript.REDLOCK_FENCE,
                ScriptOutputType.MULTI, new String[] { keys.fence(), keys.waiters() }, FenceReply::parse,
                FenceReply.NO_ANSWER,
                new RedLockFenceArgs(token, this.protocol.fenceRetentionMillis(), this.acquisition).argv());
        int quorum = this.nodes.quorum();
        int tolerated = this.nodes.size() - quorum;
        return RedLockNodes.gather(replies, (snapshot) -> {
            int accepted = 0;
            int other = 0;
            for (FenceReply reply : snapshot) {
                accepted += (reply != null && reply.accepted()) ? 1 : 0;
                other += (reply != null && !reply.accepted()) ? 1 : 0;
            }
            return accepted >= quorum || other > tolerated;
        }).thenCompose((snapshot) -> {
            int accepted = 0;
            long stored = -1;
            for (FenceReply reply : snapshot) {
                if (reply != null && reply.accepted()) {
                    accepted++;
                }
                else if (reply != null && reply.answered()) {
                    stored = Math.max(stored, reply.stored());
                }
            }
            if (accepted >= quorum) {
                return CompletableFuture.completedFuture(token);
            }
            if (stored >= token && round < MAX_FENCE_ROUNDS) {
                // A node already stores a token at least as large (written by a holder this attempt's round 1 did
                // not see): go above it.
                return fenceRound(stored + 1, round + 1);
            }
            return CompletableFuture.completedFuture(null);
        });
    }

    /** Cleans up every node after a failed attempt, each as soon as its round-1 reply is known. */
    private void giveUp(List<CompletableFuture<NodeReply>> replies) {
        long untilNanos = this.sentAtNanos + TimeUnit.MILLISECONDS.toNanos(this.leaseMillis);
        for (int node = 0; node < replies.size(); node++) {
            int index = node;
            replies.get(node).thenAccept((reply) -> {
                if (reply.status() == Status.GRANTED) {
                    this.protocol.releaseOnNode(index, this.owner, false);
                }
                else if (reply.status() == Status.NO_ANSWER) {
                    // The request may still run there later: refuse it for good. Only this attempt's owner.
                    this.nodes.retryOnNode(this.protocol.lockName(), this.owner,
                            () -> this.protocol.abandonOnNode(index, this.owner, this.acquisition,
                                    this.leaseMillis),
                            untilNanos);
                }
            });
        }
    }

    /**
     * A refusal and when to try again: after the back-off (-1) when too few nodes answered for a majority, or the
     * shortest PTTL of a holder when some owner may hold a majority (a wake-up ends either earlier); otherwise
     * (attempts split the nodes among them, or were refused only because others wait) after a short random delay, as
     * in the Redis algorithm, and not earlier, so that the contenders do not retry in step.
     */
    private AttemptResult refused(List<@Nullable NodeReply> snapshot) {
        int pending = 0;
        int unanswered = 0;
        long shortestPttl = -1;
        Map<String, Integer> holders = new HashMap<>();
        for (NodeReply reply : snapshot) {
            if (reply == null) {
                pending++;
            }
            else if (reply.status() == Status.NO_ANSWER) {
                unanswered++;
            }
            else if (reply.status() == Status.HELD) {
                holders.merge(String.valueOf(reply.holder()), 1, Integer::sum);
                if (reply.value() >= 0) {
                    shortestPttl = (shortestPttl < 0) ? reply.value() : Math.min(shortestPttl, reply.value());
                }
            }
        }
        int quorum = this.nodes.quorum();
        if (pending + unanswered > this.nodes.size() - quorum) {
            return new AttemptResult(null, -1);
        }
        int undecided = pending;
        if (holders.values().stream().anyMatch((count) -> count + undecided >= quorum)) {
            return new AttemptResult(null, shortestPttl);
        }
        long spread = Math.max(2, TimeUnit.NANOSECONDS.toMillis(this.nodes.timeoutNanos()) / 10);
        return AttemptResult.splitVote(ThreadLocalRandom.current().nextLong(1, spread + 1));
    }

    private static int count(List<@Nullable NodeReply> snapshot, Status status) {
        int count = 0;
        for (NodeReply reply : snapshot) {
            count += (reply != null && reply.status() == status) ? 1 : 0;
        }
        return count;
    }
}
