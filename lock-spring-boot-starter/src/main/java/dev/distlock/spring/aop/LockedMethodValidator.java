package dev.distlock.spring.aop;

import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.distlock.spring.annotation.DistributedLock;

import org.springframework.aop.framework.AopInfrastructureBean;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.Ordered;

/**
 * Validates the {@link DistributedLock @DistributedLock} declarations of every bean when it is created (expressions,
 * parameter and bean names, durations and placeholders, fallback methods, skip return types), so a mistake fails the
 * application start instead of the first call. The validated declarations are cached for the interceptor.
 *
 * <p>Infrastructure, not API: public only so that the auto-configuration ({@code dev.distlock.spring.boot}) can declare
 * it as a bean that an application may replace; it may change in any release.
 */
public final class LockedMethodValidator implements BeanPostProcessor, Ordered {

    private final LockOperationSource operations;

    private final Set<Class<?>> validated = ConcurrentHashMap.newKeySet();

    /** @param operations the source that validates and caches declarations */
    public LockedMethodValidator(LockOperationSource operations) {
        this.operations = Objects.requireNonNull(operations, "operations must not be null");
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
        if (bean instanceof AopInfrastructureBean) {
            return bean;
        }
        Class<?> targetClass = AopProxyUtils.ultimateTargetClass(bean);
        if (!this.validated.contains(targetClass)) {
            this.operations.validate(targetClass);
            this.validated.add(targetClass);
        }
        return bean;
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
