package dev.distlock.test.redis;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Starts the {@link EmbeddedRedis} of one application context, points the Redis properties at it, and stops it as
 * the context's last disposable bean. All instances are equal, so the customizer does not split the context cache.
 */
final class EmbeddedRedisContextCustomizer implements ContextCustomizer {

    static final String BEAN_NAME = "distlockEmbeddedRedis";

    private static final String LOCK_REDIS = "distributed-lock.redis";

    @Override
    public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
        if (!(context.getBeanFactory() instanceof DefaultSingletonBeanRegistry registry)) {
            throw new IllegalStateException("@AutoConfigureEmbeddedRedis needs a bean factory that destroys beans in"
                    + " order (a DefaultListableBeanFactory), not " + context.getBeanFactory().getClass().getName());
        }
        EmbeddedRedis redis = EmbeddedRedis.start();
        // the first disposable bean is destroyed last, after the lock client and everything else that uses Redis
        registry.registerDisposableBean(BEAN_NAME, redis::stop);
        registry.registerSingleton(BEAN_NAME, redis);
        ConfigurableEnvironment environment = context.getEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource(BEAN_NAME, properties(redis, environment)));
    }

    static Map<String, Object> properties(EmbeddedRedis redis, ConfigurableEnvironment environment) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("spring.data.redis.url", redis.uri());
        properties.put("spring.data.redis.host", redis.host());
        properties.put("spring.data.redis.port", redis.port());
        Binder binder = Binder.get(environment);
        boolean cluster = binder.bind(LOCK_REDIS + ".cluster.nodes", Bindable.listOf(String.class))
            .map((nodes) -> !nodes.isEmpty())
            .orElse(false);
        boolean dedicated = cluster || List.of("url", "host", "sentinel.master")
            .stream()
            .anyMatch((property) -> binder.bind(LOCK_REDIS + "." + property, String.class)
                .map((value) -> !value.isBlank())
                .orElse(false));
        if (dedicated) {
            // the url wins over host and sentinel; an empty node list turns cluster mode off
            properties.put(LOCK_REDIS + ".url", redis.uri());
            properties.put(LOCK_REDIS + ".ssl.enabled", false);
            if (cluster) {
                properties.put(LOCK_REDIS + ".cluster.nodes", "");
            }
        }
        return properties;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof EmbeddedRedisContextCustomizer;
    }

    @Override
    public int hashCode() {
        return EmbeddedRedisContextCustomizer.class.hashCode();
    }
}
