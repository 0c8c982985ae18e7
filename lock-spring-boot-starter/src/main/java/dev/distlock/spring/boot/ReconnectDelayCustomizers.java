package dev.distlock.spring.boot;

import io.lettuce.core.resource.Delay;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Caps Lettuce's reconnect back-off of the application's client (default: up to 30 s) at
 * {@code distributed-lock.reconnect-max-delay}, so locks work again soon after Redis returns. Boot's customizer type
 * moved package in Boot 4; one of the two configurations matches.
 */
final class ReconnectDelayCustomizers {

    private ReconnectDelayCustomizers() {
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer")
    static class Boot4 {

        @Bean
        ClientResourcesBuilderCustomizer distributedLockReconnectDelay(LockClientSettings settings) {
            return (builder) -> builder.reconnectDelay(reconnectDelay(settings));
        }
    }

    /** Spring Boot 3.5, compiled against lock-boot3-stubs. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.autoconfigure.data.redis.ClientResourcesBuilderCustomizer")
    static class Boot3 {

        @Bean
        org.springframework.boot.autoconfigure.data.redis.ClientResourcesBuilderCustomizer
                distributedLockReconnectDelay(LockClientSettings settings) {
            return (builder) -> builder.reconnectDelay(reconnectDelay(settings));
        }
    }

    private static Delay reconnectDelay(LockClientSettings settings) {
        return DedicatedLockConnection.reconnectDelay(settings.reconnectMaxDelay());
    }
}
