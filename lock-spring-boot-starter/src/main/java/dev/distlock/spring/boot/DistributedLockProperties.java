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
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.util.StringUtils;

/**
 * Configuration properties of distributed locks, under {@code distributed-lock}: a plain holder. The values are
 * checked once, when the auto-configuration maps them to the {@code LockClientSettings} bean every lock client is
 * built from ({@code LockOptionsMapper}, which reuses the limits of {@link dev.distlock.core.LockClientOptions}): an
 * invalid value fails the application start with an {@code InvalidConfigurationPropertyValueException} naming the
 * property.
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

    /**
     * How long a lock handed to a queued waiter stays offered to it until the waiter confirms it (with a renewal, once
     * half of it has passed, or never when the waiter is done by then); a dead, frozen or cut-off waiter's offer lapses
     * after this and the lock passes to the next waiter.
     */
    private Duration handoffOffer = Duration.ofSeconds(2);

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
    @NestedConfigurationProperty
    private final LockRedisProperties redis = new LockRedisProperties();

    /** Replica acknowledgement (WAIT) after every grant; off unless count is positive. */
    private final ReplicaAcks replicaAcks = new ReplicaAcks();

    /** Independent Redis masters for @DistributedLock(type = REDLOCK) and the RedLockClient bean. */
    @NestedConfigurationProperty
    private final RedLockProperties redlock = new RedLockProperties();

    /** Leader election: one instance of a group leads (see LeaderCandidate). */
    @NestedConfigurationProperty
    private final LeaderProperties leader = new LeaderProperties();

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

    public Duration getHandoffOffer() {
        return this.handoffOffer;
    }

    public void setHandoffOffer(Duration handoffOffer) {
        this.handoffOffer = handoffOffer;
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

    public LockRedisProperties getRedis() {
        return this.redis;
    }

    public ReplicaAcks getReplicaAcks() {
        return this.replicaAcks;
    }

    public RedLockProperties getRedlock() {
        return this.redlock;
    }

    public LeaderProperties getLeader() {
        return this.leader;
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
}
