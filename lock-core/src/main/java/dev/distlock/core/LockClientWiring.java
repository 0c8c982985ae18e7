package dev.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.distlock.core.internal.LockEngine;
import dev.distlock.core.internal.redis.RedisGateway;
import dev.distlock.core.internal.redis.RedisGateways;
import dev.distlock.core.internal.redlock.RedLocks;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.cluster.RedisClusterClient;

/**
 * Wires the internals of {@link RedisLockClient} and {@link RedLockClient}: opens their gateways on the Lettuce
 * clients ({@link RedisGateways}), builds the {@link LockEngine} every lock of a client shares, and turns a first
 * connection that fails into an exception that says what to check. The clients keep what it returns and nothing of
 * the gateways' kinds.
 */
final class LockClientWiring {

    /** How long {@code create...ConnectingInBackground} waits for the first connection before it returns. */
    private static final Duration BACKGROUND_CONNECT_WAIT = Duration.ofSeconds(1);

    /** The longest pause between two background connection attempts. */
    private static final Duration BACKGROUND_CONNECT_MAX_DELAY = Duration.ofSeconds(1);

    private LockClientWiring() {
    }

    /** @throws RedisUnreachableException if Redis cannot be reached or refuses the credentials */
    static LockEngine standalone(RedisClient client, LockClientOptions options) {
        RedisGateway gateway;
        try {
            gateway = RedisGateways.open(client, options.replicaAcks() > 0, options.operationTimeout());
        }
        catch (RedisException ex) {
            throw new RedisUnreachableException("Could not connect to Redis for distributed locks: " + ex.getMessage()
                    + ". Check the Redis address, password/ACL user and that the server is running.", ex);
        }
        return new LockEngine(gateway, options);
    }

    static LockEngine standaloneInBackground(RedisClient client, LockClientOptions options) {
        return new LockEngine(RedisGateways.openInBackground(client, options.replicaAcks() > 0,
                options.operationTimeout(), BACKGROUND_CONNECT_MAX_DELAY, BACKGROUND_CONNECT_WAIT), options);
    }

    /**
     * @throws IllegalArgumentException if replica acknowledgement is asked for
     * @throws RedisUnreachableException if the cluster cannot be reached or refuses the credentials
     */
    static LockEngine cluster(RedisClusterClient client, LockClientOptions options) {
        requireNoReplicaAcks(options);
        RedisGateway gateway;
        try {
            gateway = RedisGateways.open(client);
        }
        catch (RedisException ex) {
            throw new RedisUnreachableException("Could not connect to the Redis Cluster for distributed locks: "
                    + ex.getMessage() + ". Check the seed node addresses, password/ACL user and cluster state.", ex);
        }
        return new LockEngine(gateway, options);
    }

    /** @throws IllegalArgumentException if replica acknowledgement is asked for */
    static LockEngine clusterInBackground(RedisClusterClient client, LockClientOptions options) {
        requireNoReplicaAcks(options);
        return new LockEngine(RedisGateways.openInBackground(client, BACKGROUND_CONNECT_MAX_DELAY,
                BACKGROUND_CONNECT_WAIT), options);
    }

    private static void requireNoReplicaAcks(LockClientOptions options) {
        if (options.replicaAcks() > 0) {
            throw new IllegalArgumentException("replicaAcks is not supported on Redis Cluster yet; set it to 0");
        }
    }

    /**
     * Opens one gateway per master and an engine that listens for releases on every one of them (and closes them all
     * when it closes).
     *
     * @throws IllegalStateException if a master cannot be reached; the gateways opened so far are closed
     */
    static RedLockParts redLock(List<RedisClient> masters, LockClientOptions options, Duration nodeTimeout) {
        List<RedisGateway> nodes = new ArrayList<>(masters.size());
        try {
            for (RedisClient master : masters) {
                // Each node call is timed with the node timeout (RedLockNodes): its connections are left as they are.
                nodes.add(RedisGateways.open(master, false, Duration.ZERO));
            }
        }
        catch (RedisException ex) {
            nodes.forEach(RedisGateway::close);
            throw new IllegalStateException("Could not connect to every RedLock master: " + ex.getMessage(), ex);
        }
        return new RedLockParts(new LockEngine(RedLocks.subscriptions(nodes, nodeTimeout), options),
                List.copyOf(nodes));
    }

    /**
     * What a {@link RedLockClient} runs on.
     *
     * @param engine the engine: watchdog and waiting, with wake-ups from every node
     * @param nodes one gateway per master, which the RedLock protocol calls
     */
    record RedLockParts(LockEngine engine, List<RedisGateway> nodes) {
    }
}
