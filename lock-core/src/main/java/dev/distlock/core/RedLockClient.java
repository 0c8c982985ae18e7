package dev.distlock.core;

import java.time.Duration;
import java.util.List;

import dev.distlock.core.internal.ProtocolLock;
import dev.distlock.core.internal.redis.RedisGateway;
import dev.distlock.core.internal.redlock.RedLocks;
import dev.distlock.core.internal.time.Durations;
import io.lettuce.core.RedisClient;

/**
 * Locks over N independent Redis masters with the Redis distributed-lock algorithm (RedLock): a lock is granted when
 * a majority (N/2+1) granted it within a validity of lease minus elapsed time (measured on the monotonic clock from
 * before the first request) minus drift (lease/100 + 2 ms). Requests go to all nodes in parallel with a short
 * per-node timeout, and each step decides as soon as a majority answered, so a down minority costs no time. Each
 * attempt has an owner token of its own: a failed attempt is released on the nodes that granted it and tombstoned
 * only on the nodes that did not answer, and the next attempt is not refused by it. The watchdog renews on all nodes
 * and declares the lease LOST when a majority refuses.
 *
 * <p><b>Fencing tokens</b> strictly increase from one holder to the next under the same assumptions as the lock's
 * exclusion: after a majority granted the lock, the token {@code max(fences read from the granting nodes) + 1} is
 * written back to a majority before the lease is handed out, and any two majorities share a node (the argument is in
 * docs/lock-kinds.md). Clock skew between the masters does not reorder tokens. A master restarted without persistence
 * forgets its counter as it forgets its grants.
 *
 * <p><b>Waiting.</b> An acquisition that waits registers on every node; while acquisitions wait, a fresh one (a
 * releaser re-acquiring at once, say) is refused and joins them instead of barging. A release publishes on every node
 * where it deleted the key and someone waits; the client listens on every node, so a release wakes the waiters, and a
 * lost message costs at most the back-off. Waiters then race: a split vote is retried after a short random delay.
 *
 * <p><b>What it does not guarantee.</b> Its safety rests on timing assumptions: bounded process pauses, bounded
 * network delay and clocks that advance at the same rate. A node restarted without persistence forgets its grants
 * and can grant the lock again (run nodes with persistence or delay their restart by a lease). Where correctness
 * depends on exclusion, have the protected resource check fencing tokens or use a consensus system.
 *
 * <p>Locks are reentrant per thread like {@link RedisLock}. All nodes must be reachable when the client is
 * created; afterwards any minority may fail. A release that too few nodes answer has an unknown outcome: closing the
 * lease then returns, and the release is retried in the background until the lease could have ended.
 */
public final class RedLockClient extends AbstractLockClient {

    /** Default timeout of one node's reply: short against the lease, as the algorithm asks. */
    public static final Duration DEFAULT_NODE_TIMEOUT = Duration.ofMillis(200);

    private final List<RedisGateway> nodes;

    private final Duration nodeTimeout;

    private RedLockClient(LockClientWiring.RedLockParts parts, Duration nodeTimeout) {
        super(parts.engine());
        this.nodes = parts.nodes();
        this.nodeTimeout = nodeTimeout;
    }

    /**
     * A RedLock client over independent masters (not replicas of each other).
     *
     * @param masters at least 3 Lettuce clients, one per master
     * @param options key prefix, leases, back-off; {@code operationTimeout} bounds local bookkeeping only
     * @param nodeTimeout how long to wait for one node's reply
     * @throws IllegalArgumentException with fewer than 3 masters
     * @throws IllegalStateException if a master cannot be reached
     */
    public static RedLockClient create(List<RedisClient> masters, LockClientOptions options, Duration nodeTimeout) {
        if (masters.size() < 3) {
            throw new IllegalArgumentException("RedLock needs at least 3 independent masters, got " + masters.size()
                    + "; for one Redis deployment use RedisLockClient");
        }
        Durations.requirePositive("nodeTimeout", nodeTimeout);
        return new RedLockClient(LockClientWiring.redLock(masters, options, nodeTimeout), nodeTimeout);
    }

    /**
     * The RedLock with this name.
     *
     * @throws IllegalArgumentException if the name is invalid
     */
    public RedisLock getLock(String name) {
        return new ProtocolLock(engine(), RedLocks.protocol(engine(), this.nodes, name, this.nodeTimeout));
    }

    /** Number of masters. */
    public int size() {
        return this.nodes.size();
    }
}
