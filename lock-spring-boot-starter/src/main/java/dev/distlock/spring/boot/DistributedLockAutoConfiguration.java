package dev.distlock.spring.boot;

import dev.distlock.core.LockClient;
import dev.distlock.core.LockTemplate;
import dev.distlock.core.RedisLockClient;
import io.lettuce.core.RedisClient;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of distributed locks: a {@link RedisLockClient} on the application's Lettuce connection
 * (standalone, Sentinel or Cluster) or on a dedicated {@code distributed-lock.redis.*} one, a
 * {@link dev.distlock.core.RedLockClient} when {@code distributed-lock.redlock.nodes} is set, a {@link LockTemplate}
 * with the configured defaults (and a {@link dev.distlock.core.reactive.ReactiveLockTemplate} when Reactor is on the
 * classpath), and the {@code @DistributedLock} advisor. Every bean backs off when the application
 * defines its own; everything is off with {@code distributed-lock.enabled=false}.
 */
// the application's Redis connection, named for Boot 4 and Boot 3.5 (whose auto-configuration has another package)
@AutoConfiguration(afterName = { "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
        "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration" })
@ConditionalOnClass({ RedisLockClient.class, RedisClient.class })
@ConditionalOnBooleanProperty(name = "distributed-lock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistributedLockProperties.class)
@Import({ LockClientConfigurations.DedicatedConnection.class, LockClientConfigurations.SharedConnection.class,
        RedLockConfiguration.class, LockAdviceConfiguration.class, ReactiveLockTemplateConfiguration.class })
public final class DistributedLockAutoConfiguration {

    /** Every property checked and mapped, once; also when the application brings its own lock client. */
    @Bean
    LockClientSettings distributedLockClientSettings(DistributedLockProperties properties, Environment environment) {
        return LockOptionsMapper.settings(properties, environment.getProperty("spring.application.name"));
    }

    @Bean
    @ConditionalOnMissingBean
    LockTemplate lockTemplate(LockClient lockClient, LockClientSettings settings,
            DistributedLockProperties properties) {
        return new LockTemplate(lockClient, settings.waitTime(), null, properties.getLostLeasePolicy());
    }

    @Bean
    @ConditionalOnBean(RedisLockClient.class)
    LockStartupReport distributedLockStartupReport(RedisLockClient redisLockClient,
            DistributedLockProperties properties, ObjectProvider<LockConnectionDescription> connection) {
        return new LockStartupReport(redisLockClient, properties, connection);
    }
}
