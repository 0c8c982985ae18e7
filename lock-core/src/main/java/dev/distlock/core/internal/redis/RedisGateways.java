package dev.distlock.core.internal.redis;

import java.time.Duration;

import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;

/**
 * Opens the {@link RedisGateway} of a lock client: the one way in to this package's gateways, for the lock clients'
 * wiring. A gateway opened here owns the connections it opens, not the Lettuce client.
 */
public final class RedisGateways {

    private RedisGateways() {
    }

    /**
     * A gateway over a standalone or Sentinel-managed Redis; with a Sentinel URI it follows the master the Sentinels
     * announce (see {@link MasterTopology}).
     *
     * @param replicaAcks whether to open the dedicated connection for acquire + {@code WAIT}
     * @param operationTimeout put to the gateway's command connections where the client has Lettuce time commands out
     *     (see {@link RedisGateway#timesOutCommands()}); zero leaves them as the client makes them
     * @throws io.lettuce.core.RedisException if Redis cannot be reached or refuses the credentials
     */
    public static RedisGateway open(RedisClient client, boolean replicaAcks, Duration operationTimeout) {
        return new LettuceGateway((subscriptions) -> new MasterTopology(client, SentinelUris.of(client).orElse(null),
                replicaAcks, operationTimeout, subscriptions), client.getResources().timer());
    }

    /**
     * A gateway over a Redis Cluster (see {@link ClusterTopology}); no replica acknowledgement.
     *
     * @throws io.lettuce.core.RedisException if the cluster cannot be reached or refuses the credentials
     */
    public static RedisGateway open(RedisClusterClient client) {
        return new LettuceGateway((subscriptions) -> new ClusterTopology(client, subscriptions.messages()),
                client.getResources().timer());
    }

    /**
     * Like {@link #open(RedisClient, boolean, Duration)}, but for a Redis that may not be up yet: returns at once
     * (after up to {@code initialWait}) and connects in the background; see {@link ConnectingGateway}.
     *
     * @param maxDelay longest pause between two connection attempts
     * @param initialWait how long to wait for the first connection before returning
     */
    public static RedisGateway openInBackground(RedisClient client, boolean replicaAcks, Duration operationTimeout,
            Duration maxDelay, Duration initialWait) {
        return new ConnectingGateway(() -> open(client, replicaAcks, operationTimeout), ClientTargets.describe(client),
                false, client.getResources().timer(), maxDelay, initialWait);
    }

    /** Like {@link #open(RedisClusterClient)}, connecting in the background; see {@link #openInBackground}. */
    public static RedisGateway openInBackground(RedisClusterClient client, Duration maxDelay, Duration initialWait) {
        return new ConnectingGateway(() -> open(client), ClientTargets.describe(client), true,
                client.getResources().timer(), maxDelay, initialWait);
    }
}
