package dev.distlock.spring.boot.actuate;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code distributedLock} health contributor. DOWN when the lock client's own Redis connection (the application's,
 * or the dedicated {@code distributed-lock.redis.*} one) is not connected or does not answer one inspection round
 * trip; UP otherwise, with details: the Redis target, this instance's id, the leases held, the watchdog lag (how far
 * the most overdue renewal is behind its schedule; above a third of the lease, leases are at risk) and the leases
 * lost within the last window. Part of the readiness group unless {@code distributed-lock.health.readiness=false} (see
 * {@link ReadinessGroupDefaults}). This is Spring Boot 4's; on Boot 3.5 the same report comes from
 * {@code Boot3LockHealthIndicator}.
 */
public class DistributedLockHealthIndicator implements HealthIndicator {

    private final LockHealthCheck check;

    DistributedLockHealthIndicator(LockHealthCheck check) {
        this.check = check;
    }

    @Override
    public Health health() {
        LockHealthCheck.Result result = this.check.check();
        return (result.up() ? Health.up() : Health.down()).withDetails(result.details()).build();
    }
}
