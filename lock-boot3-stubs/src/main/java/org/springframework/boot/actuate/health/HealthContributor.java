package org.springframework.boot.actuate.health;

/** Compile-only stub of Spring Boot 3.5's {@code HealthContributor} (in Boot 4: {@code boot.health.contributor}). */
public interface HealthContributor {
}
