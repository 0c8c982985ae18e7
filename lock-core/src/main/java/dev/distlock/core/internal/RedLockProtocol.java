package dev.distlock.core.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ScriptOutputType;

/**
 * The Redis distributed-lock algorithm (RedLock) over N independent masters: the acquire script is sent to every
 * node in parallel with a short per-node timeout; the lock is granted when at least N/2+1 nodes granted it and the
 * validity left (lease minus the time since the first send minus drift, which {@link Hold} computes from the send
 * time) is positive. Otherwise the attempt is abandoned on every node (owner-checked release plus a tombstone against
 * late execution) and the caller retries after a random delay.
 * Renewal succeeds while a majority renews; it is refused when a majority can no longer be reached with "yes".
 *
 * <p>The fencing token is the largest of the granting nodes' tokens. It increases in normal operation but is not
 * guaranteed to be strictly monotonic: without consensus, a node restarted without persistence or a clock jump can
 * let a later grant carry a smaller token.
 */
final class RedLockProtocol implements LockProtocol {

    private final LockEngine engine;

    private final List<RedisGateway> nodes;

    private final LockKeys keys;

    private final long nodeTimeoutNanos;

    private final int quorum;

    RedLockProtocol(LockEngine engine, List<RedisGateway> nodes, LockKeys keys, Duration nodeTimeout) {
        this.engine = engine;
        this.nodes = nodes;
        this.keys = keys;
        this.nodeTimeoutNanos = nodeTimeout.toNanos();
        this.quorum = nodes.size() / 2 + 1;
    }

    @Override
    public String kind() {
        return "redlock";
    }

    @Override
    public String lockName() {
        return this.keys.name();
    }

    @Override
    public String holdKey() {
        return "redlock:" + this.keys.lockKey();
    }

    @Override
    public String channel() {
        return "redlock:" + this.keys.channel();
    }

    @Override
    public boolean publishesReleases() {
        return false;
    }

    @Override
    public boolean singleRacer() {
        return true;
    }

    @Override
    public CompletableFuture<AttemptResult> attempt(String owner, long leaseMillis, String context,
            boolean willWait) {
        long sentAt = System.nanoTime();
        List<CompletableFuture<AttemptResult>> replies = new ArrayList<>(this.nodes.size());
        for (RedisGateway node : this.nodes) {
            CompletableFuture<List<Object>> reply = onNode(node, LuaScript.ACQUIRE_KEY, ScriptOutputType.MULTI,
                    new String[] { this.keys.lockKey(), this.keys.fenceKey(), this.keys.tombstoneKey(owner) }, owner,
                    Long.toString(leaseMillis), this.engine.fencingArgument());
            replies.add(reply.thenApply((values) -> LockEngine.attemptResult(values, owner, sentAt))
                .exceptionally((ex) -> null));
        }
        return CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new)).thenApply((ignored) -> {
            int granted = 0;
            boolean unanswered = false;
            long token = 0;
            for (CompletableFuture<AttemptResult> reply : replies) {
                AttemptResult result = reply.join();
                Grant grant = (result != null) ? result.grant() : null;
                unanswered |= (result == null);
                if (grant != null) {
                    granted++;
                    token = Math.max(token, grant.fencingToken());
                }
            }
            long validityNanos = TimeUnit.MILLISECONDS.toNanos(leaseMillis) - (System.nanoTime() - sentAt)
                    - Hold.driftNanos(leaseMillis);
            if (granted >= this.quorum && validityNanos > 0) {
                return new AttemptResult(new Grant(owner, token, sentAt), -1);
            }
            if (unanswered) {
                // Nodes that did not answer may still execute the request: tombstone it everywhere.
                this.engine.abandon(this, owner, leaseMillis);
            }
            else if (granted > 0) {
                this.engine.releaseQuietly(this, owner);
            }
            return new AttemptResult(null, -1);
        });
    }

    @Override
    public CompletableFuture<Boolean> renew(String owner, long leaseMillis) {
        List<CompletableFuture<Long>> replies = new ArrayList<>(this.nodes.size());
        for (RedisGateway node : this.nodes) {
            CompletableFuture<Long> reply = onNode(node, LuaScript.RENEW, ScriptOutputType.INTEGER,
                    new String[] { this.keys.lockKey() }, owner, Long.toString(leaseMillis));
            replies.add(reply.exceptionally((ex) -> -1L));
        }
        return CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new)).thenCompose((ignored) -> {
            int renewed = 0;
            int refused = 0;
            for (CompletableFuture<Long> reply : replies) {
                long value = reply.join();
                renewed += (value == 1L) ? 1 : 0;
                refused += (value == 0L) ? 1 : 0;
            }
            if (renewed >= this.quorum) {
                return CompletableFuture.completedFuture(true);
            }
            if (refused > this.nodes.size() - this.quorum) {
                return CompletableFuture.completedFuture(false);
            }
            // Too many nodes unreachable to decide: retry at the next tick while the validity lasts.
            return CompletableFuture.failedFuture(new IllegalStateException("Only " + renewed + " of "
                    + this.nodes.size() + " nodes renewed lock '" + lockName() + "', " + refused + " refused"));
        });
    }

    @Override
    public CompletableFuture<Boolean> release(String owner) {
        List<CompletableFuture<Long>> replies = new ArrayList<>(this.nodes.size());
        for (RedisGateway node : this.nodes) {
            replies.add(onNode(node, LuaScript.RELEASE_KEY, ScriptOutputType.INTEGER,
                    new String[] { this.keys.lockKey() }, owner, this.keys.channel()));
        }
        return CompletableFuture.allOf(replies.stream().map((reply) -> reply.exceptionally((ex) -> 0L))
            .toArray(CompletableFuture[]::new))
            .thenApply((ignored) -> replies.stream().anyMatch((reply) -> !reply.isCompletedExceptionally()
                    && reply.join() == 1L));
    }

    @Override
    public CompletableFuture<Boolean> isLocked() {
        List<CompletableFuture<Boolean>> replies = new ArrayList<>(this.nodes.size());
        for (RedisGateway node : this.nodes) {
            replies.add(node.exists(this.keys.lockKey()).orTimeout(this.nodeTimeoutNanos, TimeUnit.NANOSECONDS)
                .exceptionally((ex) -> false));
        }
        return CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new))
            .thenApply((ignored) -> replies.stream().filter(CompletableFuture::join).count() >= this.quorum);
    }

    @Override
    public CompletableFuture<Boolean> forceRelease() {
        List<CompletableFuture<Long>> replies = new ArrayList<>(this.nodes.size());
        for (RedisGateway node : this.nodes) {
            CompletableFuture<Long> reply = onNode(node, LuaScript.FORCE_RELEASE, ScriptOutputType.INTEGER,
                    new String[] { this.keys.lockKey() }, this.keys.channel());
            replies.add(reply.exceptionally((ex) -> 0L));
        }
        return CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new))
            .thenApply((ignored) -> replies.stream().anyMatch((reply) -> reply.join() == 1L));
    }

    @Override
    public CompletableFuture<?> abandon(String owner, long tombstoneMillis) {
        List<CompletableFuture<Long>> replies = new ArrayList<>(this.nodes.size());
        for (RedisGateway node : this.nodes) {
            replies.add(onNode(node, LuaScript.ABANDON, ScriptOutputType.INTEGER, new String[] {
                this.keys.tombstoneKey(owner), this.keys.lockKey(), this.keys.unusedKey(), this.keys.unusedKey(),
                this.keys.unusedKey() }, owner, Long.toString(tombstoneMillis), this.keys.channel()));
        }
        // Succeeds only when every node took the tombstone, so the engine retries while some node is unreachable.
        return CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new));
    }

    private <T> CompletableFuture<T> onNode(RedisGateway node, LuaScript script, ScriptOutputType type,
            String[] keys, String... args) {
        return node.<T>eval(script, type, keys, args).orTimeout(this.nodeTimeoutNanos, TimeUnit.NANOSECONDS);
    }
}
