package dev.distlock.core;

import java.time.Duration;

import dev.distlock.core.internal.InstanceIds;
import dev.distlock.core.internal.time.DurationFormat;
import org.jspecify.annotations.Nullable;

/**
 * Settings of a {@link RedisLockClient}. Immutable; build with {@link #builder()}. Every value is validated when
 * built: a refused value throws {@link InvalidLockOptionException}, which names the option.
 *
 * @param keyPrefix prefix of every Redis key and channel the client writes, e.g. {@code lock:} gives
 * {@code lock:{orders:42}}; must not contain braces
 * @param watchdogLease lease of watchdog-renewed holds; renewed every third of it
 * @param operationTimeout upper bound of one Redis round trip before the outcome is treated as unknown; where the
 * Lettuce client times its commands with the connection's timeout (Lettuce 7's default), the lock client sets its own
 * connections' timeout to it and leaves the timing to Lettuce
 * @param maxBackoff longest a waiter sleeps between attempts when no release message arrives
 * @param fencingCounterRetention how long an idle lock's fencing counter is kept; tokens also follow the Redis server
 * clock, so they keep increasing after the counter expires unless that clock steps back
 * @param maxNameLength longest lock name accepted, in characters
 * @param fencing whether acquisitions mint fencing tokens (a companion counter key per lock); when off,
 * {@link LockLease#fencingToken()} is always 0 and no counter key is written
 * @param replicaAcks how many replicas must acknowledge a grant ({@code WAIT}) before it counts; 0 (default) skips the
 * check. Narrows, but does not close, the window in which a failover loses a grant
 * @param replicaAckTimeout how long to wait for those acknowledgements
 * @param replicaAckPolicy what to do when too few replicas acknowledged in time
 * @param instanceId who this client is, for people: part of every owner token, so an inspected lock or a refused
 * acquisition names the instance that holds it; defaults to {@code host:pid}. At most 100 characters, no whitespace and
 * no {@code '|'}
 * @param handoffOffer how long a lock handed to a queued waiter stays offered to it: the waiter runs on the offer at
 * once and confirms it with a renewal to its lease once half of it has passed (at once for offers under 1 s or with
 * replica acknowledgement), or never when it is done by then; a waiter that does not (its process died, froze or is
 * cut off) loses the offer when it lapses, and the lock passes to the next live waiter. Capped at the waiter's lease.
 * Longer tolerates longer pauses of a live waiter; shorter passes over a dead one sooner
 */
public record LockClientOptions(String keyPrefix, Duration watchdogLease, Duration operationTimeout,
        Duration maxBackoff, Duration fencingCounterRetention, int maxNameLength, boolean fencing, int replicaAcks,
        Duration replicaAckTimeout, ReplicaAckPolicy replicaAckPolicy, String instanceId, Duration handoffOffer) {

    /** Default prefix of lock keys. */
    public static final String DEFAULT_KEY_PREFIX = "lock:";

    /** Shortest fixed lease accepted: it must outlast the drift margin (lease/100 + 2 ms) and a round trip. */
    public static final Duration MIN_LEASE_TIME = Duration.ofMillis(10);

    /** Longest fixed lease accepted by any acquire method; anything longer is almost certainly a unit mistake. */
    public static final Duration MAX_LEASE_TIME = Duration.ofDays(365);

    /** Shortest watchdog lease that leaves a renewal room for a round trip. */
    public static final Duration MIN_WATCHDOG_LEASE = Duration.ofMillis(300);

    /** Shortest handoff offer accepted: a live waiter must hear of it and confirm it with a round trip. */
    public static final Duration MIN_HANDOFF_OFFER = Duration.ofMillis(100);

    /**
     * @throws InvalidLockOptionException naming the first option whose value is refused
     */
    public LockClientOptions {
        requireKeyPrefix(keyPrefix);
        requireWatchdogLease(watchdogLease);
        requirePositive("operationTimeout", operationTimeout);
        requirePositive("maxBackoff", maxBackoff);
        requirePositive("fencingCounterRetention", fencingCounterRetention);
        if (maxNameLength < 1) {
            throw new InvalidLockOptionException("maxNameLength", maxNameLength,
                    "must be at least 1, was " + maxNameLength, null);
        }
        requireReplicaAcks(replicaAcks, replicaAckTimeout, operationTimeout);
        if (replicaAckPolicy == null) {
            throw new InvalidLockOptionException("replicaAckPolicy", null, "must be set, one of FAIL, WARN", null);
        }
        requireHandoffOffer(handoffOffer);
        requireInstanceId(instanceId);
    }

    private static void requireKeyPrefix(@Nullable String keyPrefix) {
        if (keyPrefix == null || keyPrefix.indexOf('{') >= 0 || keyPrefix.indexOf('}') >= 0) {
            throw new InvalidLockOptionException("keyPrefix", keyPrefix, "must not contain '{' or '}', was '"
                    + keyPrefix + "': the lock name inside braces is the Redis Cluster hash tag", null);
        }
    }

    private static void requireWatchdogLease(@Nullable Duration watchdogLease) {
        requirePositive("watchdogLease", watchdogLease);
        if (watchdogLease.compareTo(MIN_WATCHDOG_LEASE) < 0) {
            throw new InvalidLockOptionException("watchdogLease", watchdogLease, "must be at least "
                    + DurationFormat.format(MIN_WATCHDOG_LEASE) + ", was " + DurationFormat.format(watchdogLease)
                    + ": it is renewed every third of it, which must leave time for a round trip", null);
        }
        if (watchdogLease.compareTo(MAX_LEASE_TIME) > 0) {
            throw new InvalidLockOptionException("watchdogLease", watchdogLease, "must be at most "
                    + MAX_LEASE_TIME.toDays() + " days, was " + DurationFormat.format(watchdogLease), null);
        }
    }

    /** {@code operationTimeout} is already checked. */
    private static void requireReplicaAcks(int replicaAcks, @Nullable Duration replicaAckTimeout,
            Duration operationTimeout) {
        if (replicaAcks < 0) {
            throw new InvalidLockOptionException("replicaAcks", replicaAcks, "must not be negative, was "
                    + replicaAcks + " (0 turns replica acknowledgement off)", null);
        }
        requirePositive("replicaAckTimeout", replicaAckTimeout);
        if (replicaAcks > 0 && replicaAckTimeout.compareTo(operationTimeout) >= 0) {
            throw new InvalidLockOptionException("replicaAckTimeout", replicaAckTimeout,
                    "must be shorter than operationTimeout (" + DurationFormat.format(operationTimeout) + "), was "
                            + DurationFormat.format(replicaAckTimeout) + ": the acquire and its WAIT share that"
                            + " bound, and a WAIT that outlasts it reads as an unknown outcome instead of applying"
                            + " the replica-ack policy",
                    "operationTimeout");
        }
    }

    private static void requireHandoffOffer(@Nullable Duration handoffOffer) {
        requirePositive("handoffOffer", handoffOffer);
        if (handoffOffer.compareTo(MIN_HANDOFF_OFFER) < 0) {
            throw new InvalidLockOptionException("handoffOffer", handoffOffer, "must be at least "
                    + DurationFormat.format(MIN_HANDOFF_OFFER) + ", was " + DurationFormat.format(handoffOffer)
                    + ": a live waiter needs a round trip to confirm the offer", null);
        }
    }

    private static void requireInstanceId(@Nullable String instanceId) {
        try {
            InstanceIds.validate(instanceId);
        }
        catch (IllegalArgumentException ex) {
            String reason = String.valueOf(ex.getMessage());
            throw new InvalidLockOptionException("instanceId", instanceId,
                    reason.startsWith("instanceId ") ? reason.substring("instanceId ".length()) : reason, null);
        }
    }

    private static void requirePositive(String option, @Nullable Duration value) {
        if (value == null) {
            throw new InvalidLockOptionException(option, null, "must be set", null);
        }
        if (value.isNegative() || value.isZero()) {
            throw new InvalidLockOptionException(option, value, "must be positive, was " + DurationFormat.format(value),
                    null);
        }
    }

    /**
     * The instance id the starter and {@link #defaults()} use: {@code applicationName@host:pid}, or {@code host:pid}
     * without an application name, with characters an instance id cannot hold replaced by {@code '-'}.
     */
    public static String defaultInstanceId(@Nullable String applicationName) {
        return InstanceIds.derive(applicationName);
    }

    /**
     * Defaults: prefix {@code lock:}, 30 s watchdog lease, 3 s operation timeout, 1 s back-off, fencing on with a
     * counter kept 1 day, names up to 1024 characters, no replica acknowledgement, instance id {@code host:pid},
     * handoff offers of 2 s.
     */
    public static LockClientOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builder for {@link LockClientOptions}. */
    public static final class Builder {

        private String keyPrefix = DEFAULT_KEY_PREFIX;

        private Duration watchdogLease = Duration.ofSeconds(30);

        private Duration operationTimeout = Duration.ofSeconds(3);

        private Duration maxBackoff = Duration.ofSeconds(1);

        private Duration fencingCounterRetention = Duration.ofDays(1);

        private int maxNameLength = 1024;

        private boolean fencing = true;

        private int replicaAcks;

        private Duration replicaAckTimeout = Duration.ofMillis(100);

        private ReplicaAckPolicy replicaAckPolicy = ReplicaAckPolicy.FAIL;

        private @Nullable String instanceId;

        private Duration handoffOffer = Duration.ofSeconds(2);

        private Builder() {
        }

        public Builder keyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
            return this;
        }

        public Builder watchdogLease(Duration watchdogLease) {
            this.watchdogLease = watchdogLease;
            return this;
        }

        public Builder operationTimeout(Duration operationTimeout) {
            this.operationTimeout = operationTimeout;
            return this;
        }

        public Builder maxBackoff(Duration maxBackoff) {
            this.maxBackoff = maxBackoff;
            return this;
        }

        public Builder fencingCounterRetention(Duration fencingCounterRetention) {
            this.fencingCounterRetention = fencingCounterRetention;
            return this;
        }

        public Builder maxNameLength(int maxNameLength) {
            this.maxNameLength = maxNameLength;
            return this;
        }

        public Builder fencing(boolean fencing) {
            this.fencing = fencing;
            return this;
        }

        /** Require {@code count} replica acknowledgements within {@code timeout}, else apply {@code policy}. */
        public Builder replicaAcks(int count, Duration timeout, ReplicaAckPolicy policy) {
            this.replicaAcks = count;
            this.replicaAckTimeout = timeout;
            this.replicaAckPolicy = policy;
            return this;
        }

        /** Who this client is, for people; see {@link LockClientOptions#instanceId()}. */
        public Builder instanceId(String instanceId) {
            this.instanceId = instanceId;
            return this;
        }

        /** How long a handoff waits for the waiter's confirmation; see {@link LockClientOptions#handoffOffer()}. */
        public Builder handoffOffer(Duration handoffOffer) {
            this.handoffOffer = handoffOffer;
            return this;
        }

        public LockClientOptions build() {
            String id = (this.instanceId != null) ? this.instanceId : InstanceIds.defaultId();
            return new LockClientOptions(this.keyPrefix, this.watchdogLease, this.operationTimeout, this.maxBackoff,
                    this.fencingCounterRetention, this.maxNameLength, this.fencing, this.replicaAcks,
                    this.replicaAckTimeout, this.replicaAckPolicy, id, this.handoffOffer);
        }
    }
}
