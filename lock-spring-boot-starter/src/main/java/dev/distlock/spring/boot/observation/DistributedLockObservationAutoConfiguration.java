package dev.distlock.spring.boot.observation;

import dev.distlock.core.RedisLockClient;
import dev.distlock.spring.boot.DistributedLockAutoConfiguration;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Observes lock holds, lost leases and failed renewals with the application's {@link ObservationRegistry} (see
 * {@link LockObservations}); off with {@code distributed-lock.observation.enabled=false}.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class,
        afterName = { "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
                // Spring Boot 3.5's
                "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration" })
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBean({ RedisLockClient.class, ObservationRegistry.class })
@ConditionalOnBooleanProperty(name = "distributed-lock.observation.enabled", matchIfMissing = true)
public final class DistributedLockObservationAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    LockObservations distributedLockObservations(RedisLockClient redisLockClient, ObservationRegistry registry) {
        LockObservations observations = new LockObservations(registry);
        redisLockClient.addEventListener(observations);
        return observations;
    }
}
