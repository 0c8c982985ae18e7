package dev.distlock.spring.boot;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.util.StringUtils;

/**
 * A dedicated Redis connection for locks ({@code distributed-lock.redis.*}), with the shape of
 * {@code spring.data.redis}: standalone (url or host), Sentinel ({@code sentinel.master}) or Cluster
 * ({@code cluster.nodes}). Unset, the locks use the application's {@code spring.data.redis} connection.
 */
public class LockRedisProperties {

    /**
     * Connection URL; overrides host, port, username, password and database. Example:
     * redis://user:password@example.com:6379/8
     */
    private @Nullable String url;

    /** Redis server host. */
    private @Nullable String host;

    /** Redis server port. */
    private int port = 6379;

    /** Login username of the Redis server. */
    private @Nullable String username;

    /** Login password of the Redis server. */
    private @Nullable String password;

    /** Database index. */
    private int database;

    /** Command timeout of the connection (defaults to the Lettuce default, 60s). */
    private @Nullable Duration timeout;

    /** Connect timeout (defaults to the Lettuce default, 10s). */
    private @Nullable Duration connectTimeout;

    /** Client name set on the connections with CLIENT SETNAME. */
    private @Nullable String clientName;

    /** SSL settings. */
    private final Ssl ssl = new Ssl();

    /** Sentinel settings; used when sentinel.master is set. */
    private final Sentinel sentinel = new Sentinel();

    /** Cluster settings; used when cluster.nodes is set. */
    private final Cluster cluster = new Cluster();

    public @Nullable String getUrl() {
        return this.url;
    }

    public void setUrl(@Nullable String url) {
        this.url = url;
    }

    public @Nullable String getHost() {
        return this.host;
    }

    public void setHost(@Nullable String host) {
        this.host = host;
    }

    public int getPort() {
        return this.port;
    }

    public void setPort(int port) {
        this.port = port;
    }

    public @Nullable String getUsername() {
        return this.username;
    }

    public void setUsername(@Nullable String username) {
        this.username = username;
    }

    public @Nullable String getPassword() {
        return this.password;
    }

    public void setPassword(@Nullable String password) {
        this.password = password;
    }

    public int getDatabase() {
        return this.database;
    }

    public void setDatabase(int database) {
        this.database = database;
    }

    public @Nullable Duration getTimeout() {
        return this.timeout;
    }

    public void setTimeout(@Nullable Duration timeout) {
        this.timeout = timeout;
    }

    public @Nullable Duration getConnectTimeout() {
        return this.connectTimeout;
    }

    public void setConnectTimeout(@Nullable Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
    }

    public @Nullable String getClientName() {
        return this.clientName;
    }

    public void setClientName(@Nullable String clientName) {
        this.clientName = clientName;
    }

    public Ssl getSsl() {
        return this.ssl;
    }

    public Sentinel getSentinel() {
        return this.sentinel;
    }

    public Cluster getCluster() {
        return this.cluster;
    }

    /** Whether a dedicated connection is configured (url, host, sentinel.master or cluster.nodes set). */
    public boolean isConfigured() {
        return StringUtils.hasText(this.url) || StringUtils.hasText(this.host)
                || StringUtils.hasText(this.sentinel.getMaster()) || isCluster();
    }

    /** Whether the dedicated connection is to a Redis Cluster (cluster.nodes set). */
    public boolean isCluster() {
        return !this.cluster.getNodes().isEmpty();
    }

    /** SSL settings of the dedicated connection. */
    public static class Ssl {

        /**
         * Whether to use SSL (TLS) for the dedicated connection; a rediss:// url or a bundle enables it too.
         */
        private boolean enabled;

        /**
         * SSL bundle (spring.ssl.bundle.*) with the trust material and, for mutual TLS, the client key of the
         * dedicated connection; setting it enables SSL.
         */
        private @Nullable String bundle;

        /** Whether SSL is on: {@code enabled}, or a bundle is named. */
        public boolean isEnabled() {
            return this.enabled || StringUtils.hasText(this.bundle);
        }

        public @Nullable String getBundle() {
            return this.bundle;
        }

        public void setBundle(@Nullable String bundle) {
            this.bundle = bundle;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }

    /** Cluster settings of the dedicated connection. */
    public static class Cluster {

        /** Initial cluster nodes as "host:port" pairs; at least one must answer when the application starts. */
        private List<String> nodes = new ArrayList<>();

        /** Maximum number of redirects to follow when executing commands (defaults to the Lettuce default, 5). */
        private @Nullable Integer maxRedirects;

        public List<String> getNodes() {
            return this.nodes;
        }

        public void setNodes(List<String> nodes) {
            this.nodes = nodes;
        }

        public @Nullable Integer getMaxRedirects() {
            return this.maxRedirects;
        }

        public void setMaxRedirects(@Nullable Integer maxRedirects) {
            this.maxRedirects = maxRedirects;
        }
    }

    /** Sentinel settings of the dedicated connection. */
    public static class Sentinel {

        /** Name of the Redis master as known to the Sentinels. */
        private @Nullable String master;

        /** Sentinels as "host:port" pairs. */
        private List<String> nodes = new ArrayList<>();

        /** Login username for authenticating with the Sentinels. */
        private @Nullable String username;

        /** Password for authenticating with the Sentinels. */
        private @Nullable String password;

        public @Nullable String getMaster() {
            return this.master;
        }

        public void setMaster(@Nullable String master) {
            this.master = master;
        }

        public List<String> getNodes() {
            return this.nodes;
        }

        public void setNodes(List<String> nodes) {
            this.nodes = nodes;
        }

        public @Nullable String getUsername() {
            return this.username;
        }

        public void setUsername(@Nullable String username) {
            this.username = username;
        }

        public @Nullable String getPassword() {
            return this.password;
        }

        public void setPassword(@Nullable String password) {
            this.password = password;
        }
    }
}
