package dev.distlock.spring.aop;

import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import org.springframework.aop.Advisor;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.Ordered;
import org.springframework.transaction.interceptor.TransactionInterceptor;

/**
 * Fails the application start when a {@link DistributedLockAdvisor} is ordered inside (or level with) a transaction
 * advisor: the lock would then be taken after the transaction began and released before it commits, so the next
 * holder could read state that is not committed yet. Checked once every singleton exists.
 *
 * <p>Transactions woven by AspectJ (mode {@code ASPECTJ}) are not advisors and are not checked.
 *
 * <p>Infrastructure, not API: public only so that the auto-configuration ({@code dev.distlock.spring.boot}) can declare
 * it as a bean that an application may replace; it may change in any release.
 */
public final class TransactionAdviceOrderVerifier implements SmartInitializingSingleton, BeanFactoryAware {

    private static final String PROPERTY = "distributed-lock.advice-order";

    private @Nullable ListableBeanFactory beanFactory;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) throws BeansException {
        if (!(beanFactory instanceof ListableBeanFactory listable)) {
            throw new IllegalStateException("The @DistributedLock advice order check needs a ListableBeanFactory");
        }
        this.beanFactory = listable;
    }

    @Override
    public void afterSingletonsInstantiated() {
        ListableBeanFactory beanFactory = Objects.requireNonNull(this.beanFactory, "beanFactory was not set");
        Map<String, DistributedLockAdvisor> lockAdvisors = BeanFactoryUtils.beansOfTypeIncludingAncestors(
                beanFactory, DistributedLockAdvisor.class, true, false);
        if (lockAdvisors.isEmpty()) {
            return;
        }
        Map<String, Advisor> advisors = BeanFactoryUtils.beansOfTypeIncludingAncestors(beanFactory,
                Advisor.class, true, false);
        for (Map.Entry<String, Advisor> entry : advisors.entrySet()) {
            if (!(entry.getValue().getAdvice() instanceof TransactionInterceptor)) {
                continue;
            }
            int transactionOrder = (entry.getValue() instanceof Ordered ordered) ? ordered.getOrder()
                    : Ordered.LOWEST_PRECEDENCE;
            for (DistributedLockAdvisor lockAdvisor : lockAdvisors.values()) {
                check(lockAdvisor.getOrder(), entry.getKey(), transactionOrder);
            }
        }
    }

    static void check(int lockOrder, String transactionAdvisor, int transactionOrder) {
        if (lockOrder < transactionOrder) {
            return;
        }
        throw new IllegalStateException("@DistributedLock advice would run inside @Transactional: " + PROPERTY
                + " is " + lockOrder + ", but the transaction advisor '" + transactionAdvisor + "' has order "
                + transactionOrder + ". The lock would be released before the transaction commits, and the next"
                + " holder could read uncommitted state. Set " + PROPERTY + " to a number lower than "
                + transactionOrder + " (the default, " + DistributedLockAdvisor.DEFAULT_ORDER + ", is right for"
                + " Spring's default transaction order), or raise the transaction order"
                + " (@EnableTransactionManagement(order = ...)).");
    }
}
