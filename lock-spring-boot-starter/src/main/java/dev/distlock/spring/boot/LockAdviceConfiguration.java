package dev.distlock.spring.boot;

import dev.distlock.core.LockTemplate;
import dev.distlock.core.RedLockClient;
import dev.distlock.spring.aop.DistributedLockAdvisor;
import dev.distlock.spring.aop.DistributedLockInterceptor;
import dev.distlock.spring.annotation.LockAdviceListener;
import dev.distlock.spring.aop.LockOperationSource;
import dev.distlock.spring.aop.LockedMethodValidator;
import dev.distlock.spring.aop.TransactionAdviceOrderVerifier;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

/**
 * The {@code @DistributedLock} infrastructure. Every bean is static and infrastructure-role: advisors and
 * post-processors are created before ordinary beans, so none of them may pull in the Redis connection or the
 * properties bean at that point (the interceptor looks up the template, the RedLock client and the listeners at its
 * first call).
 */
@Configuration(proxyBeanMethods = false)
@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
@Import(LockProxyRegistrar.class)
class LockAdviceConfiguration {

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static LockOperationSource distributedLockOperationSource(BeanFactory beanFactory, Environment environment) {
        return new LockOperationSource(beanFactory, environment);
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static LockedMethodValidator distributedLockMethodValidator(LockOperationSource distributedLockOperationSource) {
        return new LockedMethodValidator(distributedLockOperationSource);
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static DistributedLockInterceptor distributedLockInterceptor(LockOperationSource distributedLockOperationSource,
            ObjectProvider<LockTemplate> lockTemplate, ObjectProvider<RedLockClient> redLockClient,
            ObjectProvider<LockAdviceListener> listeners) {
        return new DistributedLockInterceptor(distributedLockOperationSource, lockTemplate::getObject,
                redLockClient::getIfUnique, () -> listeners.orderedStream().toList());
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnClass(name = "org.springframework.transaction.interceptor.TransactionInterceptor")
    static TransactionAdviceOrderVerifier distributedLockTransactionOrderVerifier() {
        return new TransactionAdviceOrderVerifier();
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static DistributedLockAdvisor distributedLockAdvisor(LockOperationSource distributedLockOperationSource,
            DistributedLockInterceptor distributedLockInterceptor, Environment environment) {
        int order = Binder.get(environment)
            .bind(DistributedLockProperties.PREFIX + ".advice-order", Integer.class)
            .orElse(DistributedLockAdvisor.DEFAULT_ORDER);
        return new DistributedLockAdvisor(distributedLockOperationSource, distributedLockInterceptor, order);
    }
}
