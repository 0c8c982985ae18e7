package dev.distlock.core.internal.redlock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

import dev.distlock.core.internal.LockEngine;
import dev.distlock.core.internal.redis.LuaScript;
import dev.distlock.core.internal.redis.RedisGateway;
import io.lettuce.core.ScriptOutputType;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The independent masters of a RedLock client and the ways to talk to them: one script call per node with the short
 * node timeout, the gathering of one round's replies until they decide an outcome (so a down node never delays a
 * decision a majority already made), and a per-node retry for clean-ups that must reach one particular node.
 */
final class RedLockNodes {

    private static final Logger logger = LoggerFactory.getLogger(RedLockNodes.class);

    private final LockEngine engine;

    private final List<RedisGateway> nodes;

    private final long timeoutNanos;

    private final int quorum;

    RedLockNodes(LockEngine engine, List<RedisGateway> nodes, long timeoutNanos) {
        this.engine = engine;
        this.nodes = nodes;
        this.timeoutNanos = timeoutNanos;
        this.quorum = nodes.size() / 2 + 1;
    }

    LockEngine engine() {
        return this.engine;
    }

    int size() {
        return this.nodes.size();
    }

    int quorum() {
        return this.quorum;
    }

    long timeoutNanos() {
        return this.timeoutNanos;
    }

    /** One script call on one node, failed after the node timeout (Lettuce then neither sends nor replays it). */
    <T> CompletableFuture<T> call(int node, LuaScript script, ScriptOutputType type, String[] keys, String... args) {
        return this.nodes.get(node).<T>eval(script, type, keys, args).orTimeout(this.timeoutNanos,
                TimeUnit.NANOSECONDS);
    }

    /** The same call on every node, each reply mapped, a failed or timed-out one to {@code failed}. */
    <T, R> List<CompletableFuture<R>> callAll(LuaScript script, ScriptOutputType type, String[] keys,
            Function<T, R> mapping, R failed, String... args) {
        List<CompletableFuture<R>> replies = new ArrayList<>(this.nodes.size());
        for (int node = 0; node < this.nodes.size(); node++) {
            replies.add(this.<T>call(node, script, type, keys, args).thenApply(mapping).exceptionally((ex) -> failed));
        }
        return replies;
    }

    /** {@code EXISTS} on every node, false for a node that did not answer. */
    List<CompletableFuture<Boolean>> existsAll(String key) {
        List<CompletableFuture<Boolean>> replies = new ArrayList<>(this.nodes.size());
        for (RedisGateway node : this.nodes) {
            replies.add(node.exists(key).orTimeout(this.timeoutNanos, TimeUnit.NANOSECONDS)
                .exceptionally((ex) -> false));
        }
        return replies;
    }

    /**
     * Completes with a snapshot of the replies (null for a node still pending) as soon as {@code decided} holds for
     * it, or when every node replied. The futures must not fail (map failures to a value first).
     */
    static <R> CompletableFuture<List<@Nullable R>> gather(List<CompletableFuture<R>> replies,
            Predicate<List<@Nullable R>> decided) {
        CompletableFuture<List<@Nullable R>> result = new CompletableFuture<>();
        Runnable check = () -> {
            if (result.isDone()) {
                return;
            }
            List<@Nullable R> snapshot = new ArrayList<>(replies.size());
            boolean all = true;
            for (CompletableFuture<R> reply : replies) {
                boolean done = reply.isDone();
                all &= done;
                snapshot.add(done ? reply.join() : null);
            }
            if (all || decided.test(snapshot)) {
                result.complete(snapshot);
            }
        };
        replies.forEach((reply) -> reply.whenComplete((value, ex) -> check.run()));
        return result;
    }

    /**
     * Runs a clean-up on one node and retries it there, every half back-off, while it fails and until
     * {@code untilNanos}; other nodes are not called again. Failures are only logged: the keys expire with their lease.
     */
    void retryOnNode(String lockName, String owner, Supplier<CompletableFuture<?>> cleanup, long untilNanos) {
        cleanup.get().whenComplete((ignored, ex) -> {
            if (ex == null) {
                return;
            }
            if (System.nanoTime() - untilNanos >= 0) {
                logger.debug("Gave up cleaning up lock '{}' (owner {}) on one node; it expires with its lease",
                        lockName, owner, ex);
                return;
            }
            try {
                this.engine.scheduler().schedule(() -> retryOnNode(lockName, owner, cleanup, untilNanos),
                        this.engine.options().maxBackoff().toNanos() / 2, TimeUnit.NANOSECONDS);
            }
            catch (RejectedExecutionException closing) {
                // The client is closing; the key expires with its lease.
            }
        });
    }
}
