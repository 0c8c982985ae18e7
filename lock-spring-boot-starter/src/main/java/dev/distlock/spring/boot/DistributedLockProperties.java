package dev.distlock.spring.boot;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.LostLeasePolicy;
import dev.distlock.core.RedLockClient;
import dev.distlock.core.ReplicaAckPolicy;
import dev.distlock.spring.aop.DistributedLockAdvisor;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.StringUtils;

/**
 * Configuration properties of distributed locks, under {@code distributed-lock}: a plain holder. The values are
 * checked when the beans that use them are created ({@code LockOptionsMapper}, which reuses the limits of
 * {@link dev.distlock.core.LockClientOptions}): an invalid value fails the application start with an
 * {@code InvalidConfigurationPropertyValueException} naming the property.
 */
@ConfigurationProperties(DistributedLockProperties.PREFIX)
public class DistributedLockProperties {

    /** The prefix of every property. */
    public static final String PREFIX = "distributed-lock";

    /** Whether to auto-configure distributed locks. */
    private boolean enabled = true;

    /** Prefix of every Redis key and channel the locks use; must not contain '{' or '}'. */
    private String keyPrefix = LockClientOptions.DEFAULT_KEY_PREFIX;

    /** Lease of watchdog-renewed locks (renewed every third of it); at least 300ms. */
    private Duration leaseTime = Duration.ofSeconds(30);

    /** Default wait for a busy lock, of LockTemplate and @DistributedLock; 0 means a single attempt. */
    private Duration waitTime = Duration.ofSeconds(5);

    /** Upper bound of one Redis round trip before its outcome is treated as unknown. */
    private Duration operationTimeout = Duration.ofSeconds(3);

    /** Longest a waiter sleeps between attempts when no release message arrives. */
    private Duration maxBackoff = Duration.ofSeconds(1);

    /** Whether acquisitions mint fencing tokens (one companion counter key per lock). */
    private boolean fencing = true;

    /** How long an idle lock's fencing counter key is kept in Redis. */
    private Duration fencingCounterRetention = Duration.ofDays(1);

    /** Longest lock name accepted, in characters (after the key is evaluated, before the key prefix). */
    private int maxNameLength = 1024;

    /**
     * What a LockTemplate or @DistributedLock call does when its lease is lost while the work runs. With FAIL the
     * exception may come after the work's transaction committed.
     */
    private LostLeasePolicy lostLeasePolicy = LostLeasePolicy.FAIL;

    /**
     * Order of the @DistributedLock advisor; the default runs it outside @Transactional. An order that puts it inside
     * the transaction advisor fails the start.
     */
    private int adviceOrder = DistributedLockAdvisor.DEFAULT_ORDER;

    /**
     * Which instance this is, part of every owner token so that an inspected lock names its holder. Defaults to
     * spring.application.name@host:pid. At most 100 characters, no whitespace and no '|'.
     */
    private @Nullable String instanceId;

    /**
     * Longest delay between Lettuce's reconnect attempts on the lock connection (a dedicated one, or the
     * application's Lettuce client resources): locks work again within about this long after Redis returns.
     */
    private Duration reconnectMaxDelay = Duration.ofSeconds(1);

    /**
     * Whether the application fails to start when the lock connection cannot reach Redis. With false it starts
     * anyway (a pod that starts before its Redis): the lock client connects in the background, lock calls fail fast
     * with "not connected to Redis at ..." and the distributedLock health is DOWN until it has connected.
     */
    private boolean requireRedisAtStartup = true;

    /**
     * Dedicated Redis connection for locks, in the shape of spring.data.redis. Used when url, host, sentinel.master or
     * cluster.nodes is set; otherwise the application's Redis connection is reused.
     */
    private final Redis redis = new Redis();

    /** Replica acknowledgement (WAIT) after every grant; off unless count is positive. */
    private final ReplicaAcks replicaAcks = new ReplicaAcks();

    /** Independent Redis masters for @DistributedLock(type = REDLOCK) and the RedLockClient bean. */
    private final RedLock redlock = new RedLock();

    public boolean isEnabled() {
        return this.enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getKeyPrefix() {
        return this.keyPrefix;
    }

    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    public Duration getLeaseTime() {
        return this.leaseTime;
    }

    public void setLeaseTime(Duration leaseTime) {
        this.leaseTime = leaseTime;
    }

    public Duration getWaitTime() {
        return this.waitTime;
    }

    public void setWaitTime(Duration waitTime) {
        this.waitTime = waitTime;
    }

    public Duration getOperationTimeout() {
        return this.operationTimeout;
    }

    public void setOperationTimeout(Duration operationTimeout) {
        this.operationTimeout = operationTimeout;
    }

    public Duration getMaxBackoff() {
        return this.maxBackoff;
    }

    public void setMaxBackoff(Duration maxBackoff) {
        this.maxBackoff = maxBackoff;
    }

    public boolean isFencing() {
        return this.fencing;
    }

    public void setFencing(boolean fencing) {
        this.fencing = fencing;
    }

    public Duration getFencingCounterRetention() {
        return this.fencingCounterRetention;
    }

    public void setFencingCounterRetention(Duration fencingCounterRetention) {
        this.fencingCounterRetention = fencingCounterRetention;
    }

    public int getMaxNameLength() {
        return this.maxNameLength;
    }

    public void setMaxNameLength(int maxNameLength) {
        this.maxNameLength = maxNameLength;
    }

    public LostLeasePolicy getLostLeasePolicy() {
        return this.lostLeasePolicy;
    }

    public void setLostLeasePolicy(LostLeasePolicy lostLeasePolicy) {
        this.lostLeasePolicy = lostLeasePolicy;
    }

    public int getAdviceOrder() {
        return this.adviceOrder;
    }

    public void setAdviceOrder(int adviceOrder) {
        this.adviceOrder = adviceOrder;
    }

    public @Nullable String getInstanceId() {
        return this.instanceId;
    }

    public void setInstanceId(@Nullable String instanceId) {
        this.instanceId = instanceId;
    }

    public boolean isRequireRedisAtStartup() {
        return this.requireRedisAtStartup;
    }

    public void setRequireRedisAtStartup(boolean requireRedisAtStartup) {
        this.requireRedisAtStartup = requireRedisAtStartup;
    }

    public Duration getReconnectMaxDelay() {
        return this.reconnectMaxDelay;
    }

    public void setReconnectMaxDelay(Duration reconnectMaxDelay) {
        this.reconnectMaxDelay = reconnectMaxDelay;
    }

    public Redis getRedis() {
        return this.redis;
    }

    public ReplicaAcks getReplicaAcks() {
        return this.replicaAcks;
    }

    public RedLock getRedlock() {
        return this.redlock;
    }

    /**
     * A dedicated Redis connection for locks, with the shape of {@code spring.data.redis}: standalone (url or host),
     * Sentinel ({@code sentinel.master}) or Cluster ({@code cluster.nodes}).
     */
    public static class Redis {

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

    /** Replica acknowledgement after every grant ({@code WAIT numreplicas timeout}). */
    public static class ReplicaAcks {

        /**
         * How many replicas must acknowledge a grant before it counts; 0 turns the check off. Narrows, but does not
         * close, the window in which a failover loses a grant. Not supported on Redis Cluster.
         */
        private int count;

        /** How long to wait for those acknowledgements; shorter than operation-timeout. */
        private Duration timeout = Duration.ofMillis(100);

        /** What to do when too few replicas acknowledged in time: fail (release and throw) or warn (keep and log). */
        private ReplicaAckPolicy policy = ReplicaAckPolicy.FAIL;

        public int getCount() {
            return this.count;
        }

        public void setCount(int count) {
            this.count = count;
        }

        public Duration getTimeout() {
            return this.timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }

        public ReplicaAckPolicy getPolicy() {
            return this.policy;
        }

        public void setPolicy(ReplicaAckPolicy policy) {
            this.policy = policy;
        }

    }

    /** RedLock over independent Redis masters. */
    public static class RedLock {

        /**
         * Independent Redis masters (not replicas of each other) as redis:// or rediss:// URIs, at least 3; setting
         * them creates the RedLockClient bean used by @DistributedLock(type = REDLOCK).
         */
        private List<String> nodes = new ArrayList<>();

        /** How long to wait for one master's reply; short against the lease. */
        private Duration nodeTimeout = RedLockClient.DEFAULT_NODE_TIMEOUT;

        public List<String> getNodes() {
            return this.nodes;
        }

        public void setNodes(List<String> nodes) {
            this.nodes = nodes;
        }

        public Duration getNodeTimeout() {
            return this.nodeTimeout;
        }

        public void setNodeTimeout(Duration nodeTimeout) {
            this.nodeTimeout = nodeTimeout;
        }

        /** Whether RedLock masters are configured. */
        public boolean isConfigured() {
            return !this.nodes.isEmpty();
        }
    }
}
