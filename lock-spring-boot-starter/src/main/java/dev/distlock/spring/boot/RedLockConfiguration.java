package dev.distlock.spring.boot;

import dev.distlock.core.RedLockClient;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * A {@link RedLockClient} over the masters of {@code distributed-lock.redlock.nodes}, on Lettuce clients the starter
 * owns. Only when those nodes are set and the application has no {@code RedLockClient} of its own.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnMissingBean(RedLockClient.class)
@Conditional(RedLockConfiguration.OnRedLockNodes.class)
class RedLockConfiguration {

    @Bean
    RedLockConnections distributedLockRedLockConnections(DistributedLockProperties properties,
            LockClientSettings settings) {
        // settings first: every property is checked before the connections are opened
        return new RedLockConnections(properties.getRedlock());
    }

    @Bean(destroyMethod = "close")
    RedLockClient redLockClient(RedLockConnections distributedLockRedLockConnections,
            LockClientSettings settings, DistributedLockProperties properties) {
        return RedLockClient.create(distributedLockRedLockConnections.clients(), settings.redLockOptions(),
                properties.getRedlock().getNodeTimeout());
    }

    /** Matches when {@code distributed-lock.redlock.nodes} lists at least one entry. */
    static class OnRedLockNodes extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            boolean set = Binder.get(context.getEnvironment())
                .bind(DistributedLockProperties.PREFIX + ".redlock.nodes", Bindable.listOf(String.class))
                .map((nodes) -> !nodes.isEmpty())
                .orElse(false);
            return new ConditionOutcome(set, set ? "distributed-lock.redlock.nodes is set"
                    : "distributed-lock.redlock.nodes is not set");
        }
    }
}
