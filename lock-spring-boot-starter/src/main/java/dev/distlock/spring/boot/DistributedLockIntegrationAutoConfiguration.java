package dev.distlock.spring.boot;

import dev.distlock.core.RedisLockClient;
import dev.distlock.spring.integration.DistlockLockRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * A {@link DistlockLockRegistry} for Spring Integration (its {@code LockRegistryLeaderInitiator} and components that
 * take a {@link LockRegistry}), when spring-integration-core is on the class path and the application declares no
 * lock registry of its own.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class)
@ConditionalOnClass(LockRegistry.class)
@ConditionalOnBooleanProperty(name = "distributed-lock.enabled", matchIfMissing = true)
@ConditionalOnBean(RedisLockClient.class)
public final class DistributedLockIntegrationAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(LockRegistry.class)
    DistlockLockRegistry distlockLockRegistry(RedisLockClient redisLockClient) {
        return new DistlockLockRegistry(redisLockClient);
    }
}
