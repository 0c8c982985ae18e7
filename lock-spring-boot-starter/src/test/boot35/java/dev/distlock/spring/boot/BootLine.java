package dev.distlock.spring.boot;

import java.util.Map;

import org.springframework.boot.actuate.autoconfigure.availability.AvailabilityHealthContributorAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.availability.AvailabilityProbesAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.health.HealthContributorAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.health.HealthEndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthEndpointGroups;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * What the tests need from Spring Boot whose package differs between Boot lines, for Boot 3.5;
 * {@code src/test/boot4/java} has the same class for Boot 4, and the pom's profile picks one.
 */
public final class BootLine {

    /** The application's Redis connection. */
    public static final Class<?> DATA_REDIS = RedisAutoConfiguration.class;

    /** Boot's {@code MeterRegistry}. */
    public static final Class<?>[] METRICS = { MetricsAutoConfiguration.class,
            CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class };

    /** The health endpoint with its groups and the Kubernetes probes. */
    public static final Class<?>[] HEALTH_PROBES = { ApplicationAvailabilityAutoConfiguration.class,
            HealthContributorAutoConfiguration.class, HealthEndpointAutoConfiguration.class,
            AvailabilityHealthContributorAutoConfiguration.class,
            AvailabilityProbesAutoConfiguration.class };

    private BootLine() {
    }

    /** {@link #DATA_REDIS} for an annotation, which needs a class literal. */
    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(RedisAutoConfiguration.class)
    public static class DataRedis {

    }

    /** The runner with a Boot Redis connection-details bean (as {@code @ServiceConnection} registers) to the server. */
    public static ApplicationContextRunner withRedisConnectionDetails(ApplicationContextRunner runner, String host,
            int port) {
        return runner.withBean(RedisConnectionDetails.class, () -> new RedisConnectionDetails() {

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
