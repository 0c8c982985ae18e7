package dev.distlock.spring.boot;

import java.util.List;
import java.util.stream.Collectors;

import io.lettuce.core.RedisURI;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Where the lock connection is configured to go, for the startup line: read from the configuration, not from a
 * connected socket, so it is known also while Redis is not reachable yet. Never holds credentials.
 *
 * @param target e.g. {@code 10.0.0.5:6379 (standalone)}, {@code Sentinel master 'mymaster' via s1:26379,s2:26379},
 * {@code Cluster seeds r1:6379,r2:6379}, with {@code , TLS} when the connection uses TLS
 * @param source which connection: the application's {@code spring.data.redis.*} one or the dedicated
 * {@code distributed-lock.redis.*} one
 */
record LockConnectionDescription(String target, String source) {

    static final String SHARED = "the application's spring.data.redis.* connection";

    static final String DEDICATED = "the dedicated distributed-lock.redis.* connection";

    static final String DETAILS = "the dedicated connection of the LockRedisConnectionDetails bean";

    /** The application's connection, as the {@link LettuceConnectionFactory} is configured. */
    static LockConnectionDescription of(LettuceConnectionFactory factory) {
        String tls = factory.isUseSsl() ? ", TLS" : "";
        RedisClusterConfiguration cluster = factory.getClusterConfiguration();
        if (cluster != null) {
            return new LockConnectionDescription("Cluster seeds " + nodes(cluster.getClusterNodes()) + tls, SHARED);
        }
        RedisSentinelConfiguration sentinel = factory.getSentinelConfiguration();
        if (sentinel != null && sentinel.getMaster() != null) {
            return new LockConnectionDescription("Sentinel master '" + sentinel.getMaster().getName() + "' via "
                    + nodes(sentinel.getSentinels()) + tls, SHARED);
        }
        RedisStandaloneConfiguration standalone = factory.getStandaloneConfiguration();
        return new LockConnectionDescription(standalone.getHostName() + ":" + standalone.getPort() + " (standalone"
                + tls + ")", SHARED);
    }

    /** A dedicated connection, as its properties configure it. */
    static LockConnectionDescription of(LockRedisProperties properties) {
        return of(properties, DEDICATED);
    }

    /**
     * A dedicated connection, as the properties configure it.
     *
     * @param source {@link #DEDICATED} or {@link #DETAILS}
     */
    static LockConnectionDescription of(LockRedisProperties properties, String source) {
        if (properties.isCluster()) {
            List<String> seeds = properties.getCluster().getNodes();
            return new LockConnectionDescription("Cluster seeds " + String.join(",", seeds)
                    + (properties.getSsl().isEnabled() ? ", TLS" : ""), source);
        }
        RedisURI uri = DedicatedLockConnection.redisUri(properties);
        String tls = uri.isSsl() ? ", TLS" : "";
        if (uri.getSentinelMasterId() != null) {
            return new LockConnectionDescription("Sentinel master '" + uri.getSentinelMasterId() + "' via "
                    + uri.getSentinels().stream().map((s) -> s.getHost() + ":" + s.getPort())
                        .collect(Collectors.joining(","))
                    + tls, source);
        }
        return new LockConnectionDescription(uri.getHost() + ":" + uri.getPort() + " (standalone" + tls + ")", source);
    }

    private static String nodes(Iterable<RedisNode> nodes) {
        StringBuilder out = new StringBuilder();
        for (RedisNode node : nodes) {
            out.append((out.length() > 0) ? "," : "").append(node.getHost()).append(':').append(node.getPort());
        }
        return out.toString();
    }
}
