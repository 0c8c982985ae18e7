package dev.distlock.spring.boot;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.RedisLockClient;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;

/** Creates the {@link RedisLockClient} that fits a Lettuce client: standalone or Sentinel, or Redis Cluster. */
final class RedisLockClients {

    private RedisLockClients() {
    }

    /**
     * @param client a {@link RedisClient} or a {@link RedisClusterClient}
     * @param options the lock client's options
     * @param connection which connection this is, for messages (e.g. "the application's Redis connection")
     * @param requireRedis whether Redis must be reachable now; false connects in the background
     * @throws org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException naming
     * {@code distributed-lock.replica-acks.count} if replica acknowledgement is asked for on a cluster
     * @throws IllegalStateException for another kind of Lettuce client, or if Redis cannot be reached
     */
    static RedisLockClient create(AbstractRedisClient client, LockClientOptions options, String connection,
            boolean requireRedis) {
        if (client instanceof RedisClusterClient cluster) {
            if (options.replicaAcks() > 0) {
                throw LockOptionsMapper.invalid("replica-acks.count", options.replicaAcks(),
                        "is not supported on Redis Cluster, and " + connection + " is a cluster; set it to 0");
            }
            return requireRedis ? RedisLockClient.create(cluster, options)
                    : RedisLockClient.createConnectingInBackground(cluster, options);
        }
        if (client instanceof RedisClient redis) {
            return requireRedis ? RedisLockClient.create(redis, options)
                    : RedisLockClient.createConnectingInBackground(redis, options);
        }
        throw new IllegalStateException("Distributed locks need a Lettuce RedisClient or RedisClusterClient, but "
                + connection + " uses " + client.getClass().getName()
                + ". Configure distributed-lock.redis.* for a dedicated connection.");
    }
}
