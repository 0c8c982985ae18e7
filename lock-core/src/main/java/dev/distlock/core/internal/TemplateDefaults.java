package dev.distlock.core.internal;

import java.time.Duration;
import java.util.Objects;

import dev.distlock.core.LockClient;
import dev.distlock.core.LostLeasePolicy;
import dev.distlock.core.internal.time.Durations;
import org.jspecify.annotations.Nullable;

/**
 * What a lock template applies to calls that do not say otherwise, checked once: shared by {@code LockTemplate} and
 * {@code ReactiveLockTemplate}.
 *
 * @param client the lock client
 * @param waitTime how long to wait (zero: one attempt)
 * @param leaseTime fixed lease, or null for watchdog-renewed leases
 * @param lostLeasePolicy what to do when a lease is lost while the guarded code runs
 */
public record TemplateDefaults(LockClient client, Duration waitTime, @Nullable Duration leaseTime,
        LostLeasePolicy lostLeasePolicy) {

    /**
     * @throws IllegalArgumentException if a duration is negative or the lease is outside the allowed range
     * @throws NullPointerException if the client, the wait time or the policy is null
     */
    public TemplateDefaults {
        Objects.requireNonNull(client, "client must not be null");
        Durations.requireNonNegative("defaultWaitTime", waitTime);
        if (leaseTime != null) {
            Durations.leaseMillis("defaultLeaseTime", leaseTime);
        }
        Objects.requireNonNull(lostLeasePolicy, "lostLeasePolicy must not be null");
    }
}
