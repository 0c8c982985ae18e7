package dev.distlock.spring.boot;

import java.util.Map;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.AvailabilityProbesAutoConfiguration;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.application.AvailabilityHealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * What the tests need from Spring Boot whose package differs between Boot lines, for Boot 4 (4.0 and 4.1);
 * {@code src/test/boot35/java} has the same class for Boot 3.5, and the pom's profile picks one.
 */
public final class BootLine {

    /** The application's Redis connection. */
    public static final Class<?> DATA_REDIS = DataRedisAutoConfiguration.class;

    /** Boot's {@code MeterRegistry}. */
    public static final Class<?>[] METRICS = { MetricsAutoConfiguration.class,
            CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class };

    /** The health endpoint with its groups and the Kubernetes probes. */
    public static final Class<?>[] HEALTH_PROBES = { ApplicationAvailabilityAutoConfiguration.class,
            HealthContributorAutoConfiguration.class, HealthContributorRegistryAutoConfiguration.class,
            HealthEndpointAutoConfiguration.class, AvailabilityHealthContributorAutoConfiguration.class,
            AvailabilityProbesAutoConfiguration.class };

    private BootLine() {
    }

    /** {@link #DATA_REDIS} for an annotation, which needs a class literal. */
    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(DataRedisAutoConfiguration.class)
    public static class DataRedis {

    }

    /** The runner with a Boot Redis connection-details bean (as {@code @ServiceConnection} registers) to the server. */
    public static ApplicationContextRunner withRedisConnectionDetails(ApplicationContextRunner runner, String host,
            int port) {
        return runner.withBean(DataRedisConnectionDetails.class, () -> new DataRedisConnectionDetails() {

            @Override
            public Standalone getStandalone() {
                return Standalone.of(host, port);
            }
        });
    }

    /** The {@code distributedLockHealthIndicator} bean's report now. */
    public static HealthReport health(ApplicationContext context) {
        Health health = context.getBean("distributedLockHealthIndicator", HealthIndicator.class).health();
        return new HealthReport(health.getStatus().getCode(), health.getDetails());
    }

    /** Whether the health endpoint's group has the member. */
    public static boolean isMember(ApplicationContext context, String group, String member) {
        return context.getBean(HealthEndpointGroups.class).get(group).isMember(member);
    }

    /** A health, Boot-line neutral: status code ("UP", "DOWN") and details. */
    public record HealthReport(String status, Map<String, Object> details) {
    }
}
