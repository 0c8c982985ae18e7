package dev.distlock.spring.boot;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Registers Spring's infrastructure auto-proxy creator if the application has none, the way
 * {@code @EnableTransactionManagement} does, so {@code @DistributedLock} works without AspectJ auto-proxying. An
 * existing (e.g. AspectJ-aware) creator is kept.
 */
final class LockProxyRegistrar implements ImportBeanDefinitionRegistrar {

    @Override
    public void registerBeanDefinitions(AnnotationMetadata importingClassMetadata, BeanDefinitionRegistry registry) {
        AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
    }
}
