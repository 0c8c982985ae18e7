package dev.distlock.spring.boot;

import dev.distlock.core.LockClient;
import dev.distlock.core.RedisLockClient;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The two ways to get a {@link RedisLockClient}: a dedicated connection ({@code distributed-lock.redis.*} or a
 * {@link LockRedisConnectionDetails} bean), or the application's Lettuce client. Both back off when the application
 * defines any {@link LockClient} (its own {@code RedisLockClient}, or lock-test's in-memory client).
 */
final class LockClientConfigurations {

    private LockClientConfigurations() {
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(LockClient.class)
    @Conditional(OnDedicatedConnection.class)
    static class DedicatedConnection {

        @Bean
        DedicatedLockConnection distributedLockRedisConnection(DistributedLockProperties properties,
                LockClientSettings settings, ObjectProvider<LockRedisConnectionDetails> details,
                ObjectProvider<SslBundles> sslBundles) {
            return new DedicatedLockConnection(target(properties, details), settings.reconnectMaxDelay(),
                    sslBundles.getIfAvailable());
        }

        @Bean
        LockConnectionDescription distributedLockConnectionDescription(DistributedLockProperties properties,
                ObjectProvider<LockRedisConnectionDetails> details) {
            String source = (details.getIfAvailable() != null) ? LockConnectionDescription.DETAILS
                    : LockConnectionDescription.DEDICATED;
            return LockConnectionDescription.of(target(properties, details), source);
        }

        @Bean(destroyMethod = "close")
        RedisLockClient redisLockClient(DedicatedLockConnection connection, LockClientSettings settings,
                DistributedLockProperties properties) {
            return connection.createLockClient(settings.clientOptions(), properties.isRequireRedisAtStartup());
        }

        /** The properties, or, when there is a {@link LockRedisConnectionDetails} bean, its address in theirs. */
        private static LockRedisProperties target(DistributedLockProperties properties,
                ObjectProvider<LockRedisConnectionDetails> details) {
            LockRedisConnectionDetails bean = details.getIfAvailable();
            return (bean != null) ? ConnectionDetailsRedisProperties.of(properties.getRedis(), bean)
                    : properties.getRedis();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(LockClient.class)
    @Conditional(OnSharedConnection.class)
    @Import({ ReconnectDelayCustomizers.Boot4.class, ReconnectDelayCustomizers.Boot3.class })
    static class SharedConnection {

        @Bean
        SharedLockClient distributedLockSharedClient(ObjectProvider<RedisConnectionFactory> connectionFactory,
                LockClientSettings settings, DistributedLockProperties properties) {
            return new SharedLockClient(lettuce(connectionFactory), settings.clientOptions(),
                    properties.isRequireRedisAtStartup());
        }

        @Bean
        LockConnectionDescription distributedLockConnectionDescription(
                ObjectProvider<RedisConnectionFactory> connectionFactory) {
            return LockConnectionDescription.of(lettuce(connectionFactory));
        }

        /** Closed by {@link SharedLockClient}, before the connection factory stops. */
        @Bean(destroyMethod = "")
        RedisLockClient redisLockClient(SharedLockClient distributedLockSharedClient) {
            return distributedLockSharedClient.client();
        }

        private static LettuceConnectionFactory lettuce(ObjectProvider<RedisConnectionFactory> connectionFactory) {
            RedisConnectionFactory factory = connectionFactory.getIfUnique();
            if (factory == null) {
                throw new IllegalStateException("Distributed locks found no unique RedisConnectionFactory to reuse:"
                        + " add spring-boot-starter-data-redis and configure spring.data.redis.*, mark one factory"
                        + " @Primary, or give the locks their own connection with distributed-lock.redis.* (url, host,"
                        + " sentinel.* or cluster.*).");
            }
            if (!(factory instanceof LettuceConnectionFactory lettuce)) {
                throw new IllegalStateException("Distributed locks run on Lettuce, but the application's"
                        + " RedisConnectionFactory is a " + factory.getClass().getName() + ". Use Lettuce (the"
                        + " Spring Boot default) or give the locks their own connection with distributed-lock.redis.*"
                        + " (url, host, sentinel.* or cluster.*).");
            }
            return lettuce;
        }
    }

    /**
     * Matches when {@code distributed-lock.redis.url}, {@code .host}, {@code .sentinel.master} or
     * {@code .cluster.nodes} is set, or there is a {@link LockRedisConnectionDetails} bean.
     */
    static class OnDedicatedConnection extends AnyNestedCondition {

        OnDedicatedConnection() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @Conditional(OnDedicatedProperties.class)
        static class Properties {
        }

        @ConditionalOnBean(LockRedisConnectionDetails.class)
        static class Details {
        }
    }

    /** The opposite of {@link OnDedicatedConnection}: neither properties nor a connection-details bean. */
    static class OnSharedConnection extends NoneNestedConditions {

        OnSharedConnection() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @Conditional(OnDedicatedProperties.class)
        static class Properties {
        }

        @ConditionalOnBean(LockRedisConnectionDetails.class)
        static class Details {
        }
    }

    /**
     * Matches when {@code distributed-lock.redis.url}, {@code .host}, {@code .sentinel.master} or
     * {@code .cluster.nodes} is set.
     */
    static class OnDedicatedProperties extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            boolean dedicated = Binder.get(context.getEnvironment())
                .bind(DistributedLockProperties.PREFIX + ".redis", LockRedisProperties.class)
                .map(LockRedisProperties::isConfigured)
                .orElse(false);
            return new ConditionOutcome(dedicated, dedicated ? "distributed-lock.redis.* is configured"
                    : "distributed-lock.redis.url, .host, .sentinel.master and .cluster.nodes are not set");
        }
    }
}
