package dev.distlock.spring.boot.actuate;

import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.cloud.CloudPlatform;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.ClassUtils;

/**
 * Puts the {@code distributedLock} health contributor into the {@code readiness} group by default, as the lowest
 * precedence property {@code management.endpoint.health.group.readiness.include=readinessState,distributedLock}: an
 * instance that cannot take locks should not get traffic that needs them. An application that configures the
 * readiness group itself keeps its own; {@code distributed-lock.health.readiness=false} turns this off. Only where
 * Boot's probes (and so the {@code readinessState} contributor) are on: by default on Boot 4; on Boot 3.5 with
 * {@code management.endpoint.health.probes.enabled=true} or on Kubernetes or Cloud Foundry.
 */
// Boot 3.5's interface, also run by Boot 4 (its spring.factories key is read there, deprecated): one registration works
// on both lines, where Boot 4's own interface would not load on 3.5
@SuppressWarnings("deprecation")
public class ReadinessGroupDefaults implements EnvironmentPostProcessor {

    static final String INCLUDE = "management.endpoint.health.group.readiness.include";

    static final String SOURCE_NAME = "distributedLockReadinessDefaults";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (!hasHealth() || !probesOn(environment)
                || !environment.getProperty("distributed-lock.health.readiness", Boolean.class, true)
                || !environment.getProperty("distributed-lock.enabled", Boolean.class, true)
                || environment.containsProperty(INCLUDE)) {
            return;
        }
        environment.getPropertySources()
            .addLast(new MapPropertySource(SOURCE_NAME, Map.of(INCLUDE, "readinessState,distributedLock")));
    }

    static final String PROBES = "management.endpoint.health.probes.enabled";

    /** Boot 4's or Boot 3.5's health types, whichever the application has. */
    private static boolean hasHealth() {
        ClassLoader classLoader = ReadinessGroupDefaults.class.getClassLoader();
        return ClassUtils.isPresent("org.springframework.boot.health.contributor.HealthIndicator", classLoader)
                || ClassUtils.isPresent("org.springframework.boot.actuate.health.HealthIndicator", classLoader);
    }

    /** As Boot decides whether the readinessState contributor exists; a group naming a missing one fails the start. */
    private static boolean probesOn(ConfigurableEnvironment environment) {
        Boolean enabled = environment.getProperty(PROBES, Boolean.class);
        if (enabled != null) {
            return enabled;
        }
        if (ClassUtils.isPresent("org.springframework.boot.health.contributor.HealthIndicator",
                ReadinessGroupDefaults.class.getClassLoader())) {
            return true;
        }
        CloudPlatform platform = CloudPlatform.getActive(environment);
        return platform == CloudPlatform.KUBERNETES || platform == CloudPlatform.CLOUD_FOUNDRY;
    }
}
