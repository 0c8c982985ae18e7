package dev.distlock.spring.aop;

import java.lang.reflect.Method;
import java.util.Objects;

import dev.distlock.spring.annotation.DistributedLock;
import org.aopalliance.aop.Advice;

import org.springframework.aop.ClassFilter;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotationUtils;

/**
 * The infrastructure advisor that applies a {@link DistributedLockInterceptor} to every method carrying
 * {@link DistributedLock @DistributedLock} (directly, through a composed annotation, or on an
 * overridden or interface method). Picked up by any Spring auto-proxy creator, so it works with and without AspectJ
 * auto-proxying.
 *
 * <p>Its order defaults to {@link #DEFAULT_ORDER}, which is of higher precedence than the transaction advisor's
 * default ({@link Ordered#LOWEST_PRECEDENCE}): the lock is taken before the transaction begins and released after it
 * has committed or rolled back.
 */
public final class DistributedLockAdvisor extends AbstractPointcutAdvisor {

    /** Default order: outside {@code @Transactional} (whose advisor defaults to the lowest precedence). */
    public static final int DEFAULT_ORDER = Ordered.LOWEST_PRECEDENCE - 100;

    private static final long serialVersionUID = 1L;

    private final transient Pointcut pointcut;

    private final transient Advice advice;

    /**
     * @param operations decides which methods are advised
     * @param interceptor the advice
     * @param order this advisor's order, e.g. {@link #DEFAULT_ORDER}
     */
    public DistributedLockAdvisor(LockOperationSource operations, DistributedLockInterceptor interceptor, int order) {
        this.pointcut = new LockedMethodPointcut(Objects.requireNonNull(operations, "operations must not be null"));
        this.advice = Objects.requireNonNull(interceptor, "interceptor must not be null");
        setOrder(order);
    }

    @Override
    public Pointcut getPointcut() {
        return this.pointcut;
    }

    @Override
    public Advice getAdvice() {
        return this.advice;
    }

    /** Matches annotated methods; skips classes that cannot carry the annotation (e.g. {@code java.*}). */
    private static final class LockedMethodPointcut extends StaticMethodMatcherPointcut {

        private final LockOperationSource operations;

        LockedMethodPointcut(LockOperationSource operations) {
            this.operations = operations;
            setClassFilter(new CandidateClassFilter());
        }

        @Override
        public boolean matches(Method method, Class<?> targetClass) {
            return this.operations.hasAnnotation(method, targetClass);
        }
    }

    private static final class CandidateClassFilter implements ClassFilter {

        @Override
        public boolean matches(Class<?> clazz) {
            return AnnotationUtils.isCandidateClass(clazz, DistributedLock.class);
        }
    }
}
