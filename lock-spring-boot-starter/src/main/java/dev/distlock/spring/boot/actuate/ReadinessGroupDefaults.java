package dev.distlock.spring.boot.actuate;

import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.ClassUtils;

/**
 * Puts the {@code distributedLock} health contributor into the {@code readiness} group by default, as the lowest
 * precedence property {@code management.endpoint.health.group.readiness.include=readinessState,distributedLock}: an
 * instance that cannot take locks should not get traffic that needs them. An application that configures the
 * readiness group itself keeps its own; {@code distributed-lock.health.readiness=false} turns this off.
 */
public class ReadinessGroupDefaults implements EnvironmentPostProcessor {

    static final String INCLUDE = "management.endpoint.health.group.readiness.include";

    static final String SOURCE_NAME = "distributedLockReadinessDefaults";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (!ClassUtils.isPresent("org.springframework.boot.health.contributor.HealthIndicator",
                ReadinessGroupDefaults.class.getClassLoader())
                || !environment.getProperty("distributed-lock.health.readiness", Boolean.class, true)
                || !environment.getProperty("distributed-lock.enabled", Boolean.class, true)
                || environment.containsProperty(INCLUDE)) {
            return;
        }
        environment.getPropertySources()
            .addLast(new MapPropertySource(SOURCE_NAME, Map.of(INCLUDE, "readinessState,distributedLock")));
    }
}
