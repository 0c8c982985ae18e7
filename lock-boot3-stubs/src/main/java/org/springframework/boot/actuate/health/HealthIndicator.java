package org.springframework.boot.actuate.health;

/** Compile-only stub of Spring Boot 3.5's {@code HealthIndicator}: the abstract method only. */
@FunctionalInterface
public interface HealthIndicator extends HealthContributor {

    /**
     * Returns the health.
     * @return the health
     */
    Health health();
}
