package dev.distlock.spring.boot;

import java.time.Duration;
import java.util.Map;

import dev.distlock.core.InvalidLockOptionException;
import dev.distlock.core.LockClientOptions;
import dev.distlock.core.internal.time.DurationFormat;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.util.StringUtils;

/**
 * Turns {@link DistributedLockProperties} into {@link LockClientOptions}, and checks what only the starter uses.
 * The limits of the options are {@link LockClientOptions}' own: its {@link InvalidLockOptionException} comes back as
 * an {@link InvalidConfigurationPropertyValueException} naming the property ({@code watchdogLease} is
 * {@code distributed-lock.lease-time}). The checks run once, when the {@link LockClientSettings} bean is created,
 * so an invalid value fails the application start.
 */
final class LockOptionsMapper {

    /** Builder names of {@link LockClientOptions} to the properties that set them. */
    private static final Map<String, String> PROPERTIES = Map.ofEntries(Map.entry("keyPrefix", "key-prefix"),
            Map.entry("watchdogLease", "lease-time"), Map.entry("operationTimeout", "operation-timeout"),
            Map.entry("maxBackoff", "max-backoff"), Map.entry("fencingCounterRetention", "fencing-counter-retention"),
            Map.entry("maxNameLength", "max-name-length"), Map.entry("replicaAcks", "replica-acks.count"),
            Map.entry("replicaAckTimeout", "replica-acks.timeout"), Map.entry("replicaAckPolicy", "replica-acks.policy"),
            Map.entry("instanceId", "instance-id"), Map.entry("handoffOffer", "handoff-offer"));

    private LockOptionsMapper() {
    }

    /**
     * What the lock clients are built from, every property checked: first the limits of {@link LockClientOptions},
     * then what only the starter uses (wait-time, lost-lease-policy, reconnect-max-delay, redis.* and redlock.*).
     *
     * @param applicationName {@code spring.application.name}, part of the default instance id
     * @throws InvalidConfigurationPropertyValueException naming the first invalid property
     */
    static LockClientSettings settings(DistributedLockProperties properties, @Nullable String applicationName) {
        DistributedLockProperties.ReplicaAcks acks = properties.getReplicaAcks();
        LockClientOptions clientOptions = build(commonOptions(properties, applicationName)
            .replicaAcks(acks.getCount(), acks.getTimeout(), acks.getPolicy()));
        // replica acknowledgement does not apply to independent masters
        LockClientOptions redLockOptions = build(commonOptions(properties, applicationName));
        Duration waitTime = waitTime(properties);
        if (properties.getLostLeasePolicy() == null) {
            throw invalid("lost-lease-policy", null, "must be one of FAIL, INTERRUPT, IGNORE");
        }
        Duration reconnectMaxDelay = requirePositive("reconnect-max-delay", properties.getReconnectMaxDelay());
        checkRedis(properties.getRedis());
        checkRedLock(properties.getRedlock(), properties.getLeaseTime());
        return new LockClientSettings(clientOptions, redLockOptions, waitTime, reconnectMaxDelay);
    }

    /** The configured instance id, or {@code spring.application.name@host:pid}. */
    private static String instanceId(DistributedLockProperties properties, @Nullable String applicationName) {
        return StringUtils.hasText(properties.getInstanceId()) ? properties.getInstanceId()
                : LockClientOptions.defaultInstanceId(applicationName);
    }

    private static LockClientOptions.Builder commonOptions(DistributedLockProperties properties,
            @Nullable String applicationName) {
        return LockClientOptions.builder()
            .keyPrefix(properties.getKeyPrefix())
            .watchdogLease(properties.getLeaseTime())
            .operationTimeout(properties.getOperationTimeout())
            .maxBackoff(properties.getMaxBackoff())
            .handoffOffer(properties.getHandoffOffer())
            .fencing(properties.isFencing())
            .fencingCounterRetention(properties.getFencingCounterRetention())
            .maxNameLength(properties.getMaxNameLength())
            .instanceId(instanceId(properties, applicationName));
    }

    private static LockClientOptions build(LockClientOptions.Builder builder) {
        try {
            return builder.build();
        }
        catch (InvalidLockOptionException ex) {
            throw invalid(ex);
        }
    }

    /** Checks {@code distributed-lock.redis.*}, whether or not a dedicated connection is configured. */
    static void checkRedis(LockRedisProperties redis) {
        if (redis.getPort() < 1 || redis.getPort() > 65535) {
            throw invalid("redis.port", redis.getPort(), "must be between 1 and 65535");
        }
        if (redis.getDatabase() < 0) {
            throw invalid("redis.database", redis.getDatabase(), "must not be negative");
        }
        if (redis.getTimeout() != null) {
            requirePositive("redis.timeout", redis.getTimeout());
        }
        if (redis.getConnectTimeout() != null) {
            requirePositive("redis.connect-timeout", redis.getConnectTimeout());
        }
        boolean sentinel = StringUtils.hasText(redis.getSentinel().getMaster());
        if (sentinel && redis.getSentinel().getNodes().isEmpty()) {
            throw invalid("redis.sentinel.nodes", "", "must list at least one \"host:port\" when "
                    + name("redis.sentinel.master") + " is set");
        }
        if (redis.isCluster()) {
            String other = sentinel ? "sentinel.master" : StringUtils.hasText(redis.getUrl()) ? "url"
                    : StringUtils.hasText(redis.getHost()) ? "host" : null;
            if (other != null) {
                throw invalid("redis.cluster.nodes", String.join(",", redis.getCluster().getNodes()), "and "
                        + name("redis." + other) + " are both set; a dedicated connection is to a cluster or to one"
                        + " server, so set only one");
            }
            Integer maxRedirects = redis.getCluster().getMaxRedirects();
            if (maxRedirects != null && maxRedirects < 0) {
                throw invalid("redis.cluster.max-redirects", maxRedirects, "must not be negative");
            }
        }
    }

    /** Checks {@code distributed-lock.redlock.*}, whether or not RedLock masters are configured. */
    private static void checkRedLock(RedLockProperties redlock, Duration leaseTime) {
        Duration nodeTimeout = requirePositive("redlock.node-timeout", redlock.getNodeTimeout());
        if (nodeTimeout.compareTo(leaseTime) >= 0) {
            throw invalid("redlock.node-timeout", nodeTimeout, "must be shorter than " + name("lease-time") + " ("
                    + format(leaseTime) + "), was " + format(nodeTimeout) + ": a grant is only valid for the lease"
                    + " minus the time to get it");
        }
        if (redlock.isConfigured() && redlock.getNodes().size() < 3) {
            throw invalid("redlock.nodes", RedLockConnections.redact(String.join(",", redlock.getNodes())),
                    "must list at least 3 independent masters, was " + redlock.getNodes().size() + "; for a single"
                            + " Redis deployment use the regular lock types");
        }
        RedLockConnections.parse(redlock.getNodes());
    }

    /** {@code distributed-lock.wait-time}, checked: zero or more. */
    private static Duration waitTime(DistributedLockProperties properties) {
        Duration waitTime = requirePresent("wait-time", properties.getWaitTime());
        if (waitTime.isNegative()) {
            throw invalid("wait-time", waitTime, "must not be negative, was " + format(waitTime)
                    + " (0 means a single attempt)");
        }
        return waitTime;
    }

    private static Duration requirePositive(String property, @Nullable Duration value) {
        requirePresent(property, value);
        if (value.isNegative() || value.isZero()) {
            throw invalid(property, value, "must be positive, was " + format(value));
        }
        return value;
    }

    private static Duration requirePresent(String property, @Nullable Duration value) {
        if (value == null) {
            throw invalid(property, null, "must be set");
        }
        return value;
    }

    private static InvalidConfigurationPropertyValueException invalid(InvalidLockOptionException ex) {
        String property = PROPERTIES.getOrDefault(ex.option(), ex.option());
        String requirement = ex.requirement();
        String related = ex.relatedOption();
        if (related != null && PROPERTIES.containsKey(related)) {
            requirement = requirement.replace(related, name(PROPERTIES.get(related)));
        }
        return invalid(property, ex.value(), requirement);
    }

    /**
     * The failure of an invalid property: {@code requirement} follows the property's full name in the reason, e.g.
     * {@code invalid("max-backoff", value, "must be positive, was 0ms")}. Durations are shown as written.
     */
    static InvalidConfigurationPropertyValueException invalid(String property, @Nullable Object value,
            String requirement) {
        Object shown = (value instanceof Duration duration) ? format(duration) : value;
        return new InvalidConfigurationPropertyValueException(name(property), shown,
                name(property) + " " + requirement);
    }

    /** The full name of a property, e.g. {@code distributed-lock.lease-time}. */
    private static String name(String property) {
        return DistributedLockProperties.PREFIX + "." + property;
    }

    /** A duration the way users write it: {@code 100ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 400d}. */
    private static String format(Duration duration) {
        return DurationFormat.format(duration);
    }
}
