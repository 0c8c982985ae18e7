/**
 * Micrometer support of distributed locks: the meters of {@code LockMetrics} (gauges of the lock clients, the
 * acquisitions, lost leases and skipped runs of {@code @DistributedLock} methods) and the observations of
 * {@code LockObservations} (held leases, lost leases and failed renewals), each with its auto-configuration.
 */
@NullMarked
package dev.distlock.spring.boot.observation;

import org.jspecify.annotations.NullMarked;
