package dev.distlock.spring.boot;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

/**
 * Where the dedicated lock connection goes, as a bean: the lock's counterpart of Spring Boot's Redis connection
 * details, for a Redis that only the locks use. A {@code @ServiceConnection(type = LockRedisConnectionDetails.class)}
 * Testcontainers container creates one; an application may define its own.
 * <p>
 * When a bean of this type exists, the locks use a dedicated connection even if no {@code distributed-lock.redis.*}
 * address is set, and the bean's address and credentials win over {@code url}, {@code host}, {@code port},
 * {@code database}, {@code username}, {@code password}, {@code sentinel.*} and {@code cluster.nodes}. The connection's
 * other settings ({@code timeout}, {@code connect-timeout}, {@code client-name}, {@code ssl.*},
 * {@code cluster.max-redirects}) still come from the properties.
 * <p>
 * It does not change the application's {@code spring.data.redis.*} connection, which Boot's own Redis connection
 * details configure: without this bean or {@code distributed-lock.redis.*}, the locks reuse that connection, so a
 * plain {@code @ServiceConnection} Redis container already configures them.
 * <p>
 * Exactly one of {@link #getStandalone()}, {@link #getSentinel()} and {@link #getCluster()} returns non-null.
 */
public interface LockRedisConnectionDetails extends ConnectionDetails {

    /** Login username of the Redis server (or of every Cluster node); null for none. */
    default @Nullable String getUsername() {
        return null;
    }

    /** Login password of the Redis server (or of every Cluster node); null for none. */
    default @Nullable String getPassword() {
        return null;
    }

    /** A single Redis server; null when the connection is to a Sentinel-managed master or a Cluster. */
    default @Nullable Standalone getStandalone() {
        return null;
    }

    /** A master found through Sentinels; null when the connection is to one server or a Cluster. */
    default @Nullable Sentinel getSentinel() {
        return null;
    }

    /** A Redis Cluster; null when the connection is to one server or a Sentinel-managed master. */
    default @Nullable Cluster getCluster() {
        return null;
    }

    /**
     * A Redis host and port.
     *
     * @param host the host name or address
     * @param port the port, 1 to 65535
     */
    record Node(String host, int port) {
    }

    /**
     * A single Redis server.
     *
     * @param host the host name or address
     * @param port the port, 1 to 65535
     * @param database the database index
     */
    record Standalone(String host, int port, int database) {

        /** Database 0 of the server at {@code host:port}. */
        public static Standalone of(String host, int port) {
            return new Standalone(host, port, 0);
        }
    }

    /**
     * A master found through Sentinels.
     *
     * @param master the master's name as the Sentinels know it
     * @param nodes the Sentinels, at least one
     * @param database the database index
     * @param username login username of the Sentinels; null for none
     * @param password password of the Sentinels; null for none
     */
    record Sentinel(String master, List<Node> nodes, int database, @Nullable String username,
            @Nullable String password) {
    }

    /**
     * A Redis Cluster.
     *
     * @param nodes the seed nodes, at least one
     */
    record Cluster(List<Node> nodes) {
    }
}
