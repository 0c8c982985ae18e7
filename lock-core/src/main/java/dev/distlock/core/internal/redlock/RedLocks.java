package dev.distlock.core.internal.redlock;

import java.time.Duration;
import java.util.List;

import dev.distlock.core.internal.LockEngine;
import dev.distlock.core.internal.protocol.RacingProtocol;
import dev.distlock.core.internal.redis.RedisGateway;

/** Builds the parts of a {@code dev.distlock.core.RedLockClient}: its engine's gateway and its lock protocols. */
public final class RedLocks {

    private RedLocks() {
    }

    /**
     * The gateway for the engine of a RedLock client: it subscribes on every node (a release wakes waiters if one
     * node's message arrives) and closes every node's gateway when the engine closes.
     */
    public static RedisGateway subscriptions(List<RedisGateway> nodes, Duration nodeTimeout) {
        return new RedLockSubscriptions(List.copyOf(nodes), nodeTimeout.toNanos());
    }

    public static RacingProtocol protocol(LockEngine engine, List<RedisGateway> nodes, String name,
            Duration nodeTimeout) {
        return new RedLockProtocol(engine, new RedLockNodes(engine, nodes, nodeTimeout.toNanos()), engine.keys(name));
    }
}
