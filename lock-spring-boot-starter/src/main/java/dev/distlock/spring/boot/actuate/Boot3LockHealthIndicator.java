package dev.distlock.spring.boot.actuate;

import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * The {@code distributedLock} health contributor on Spring Boot 3.5, whose health types live in
 * {@code org.springframework.boot.actuate.health}; compiled against lock-boot3-stubs, run on the real Boot 3.5
 * classes. Reports what {@link DistributedLockHealthIndicator} reports on Boot 4.
 */
final class Boot3LockHealthIndicator implements HealthIndicator {

    private final LockHealthCheck check;

    Boot3LockHealthIndicator(LockHealthCheck check) {
        this.check = check;
    }

    @Override
    public Health health() {
        LockHealthCheck.Result result = this.check.check();
        return (result.up() ? Health.up() : Health.down()).withDetails(result.details()).build();
    }
}
