package dev.distlock.spring.aop;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

import dev.distlock.core.DistributedLock;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.LockTemplate;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.aop.support.AopUtils;
import org.springframework.util.function.SingletonSupplier;

/**
 * Runs {@link dev.distlock.spring.aop.DistributedLock @DistributedLock} methods under their lock through
 * {@link LockTemplate#execute(DistributedLock, Duration, Duration, dev.distlock.core.LockCallback)}, so the lock is
 * released when the method returns or throws and a lost lease is handled by the template's
 * {@link dev.distlock.core.LostLeasePolicy}. While the method runs, its lease is available from
 * {@link LockContext#currentLease()}.
 *
 * <p>When the lock is not acquired within the wait time the method does not run, and the declaration's
 * {@link OnNotAcquired} decides the outcome. A {@link LockNotAcquiredException} thrown by the method itself (from a
 * lock it takes inside) is passed through unchanged.
 *
 * <p>The template and the default wait time are looked up at the first call, so this interceptor can be created early
 * (as advisors are) without pulling the Redis connection into the bean post-processing phase.
 */
public final class DistributedLockInterceptor implements MethodInterceptor {

    private static final Logger logger = LoggerFactory.getLogger(DistributedLockInterceptor.class);

    private final LockOperationSource operations;

    private final Supplier<LockTemplate> template;

    private final Supplier<Duration> defaultWaitTime;

    /**
     * @param operations where the annotated methods' validated declarations come from
     * @param template the template that runs the methods (looked up once, at the first call)
     * @param defaultWaitTime the wait time of declarations without one (looked up once, at the first call)
     */
    public DistributedLockInterceptor(LockOperationSource operations, Supplier<LockTemplate> template,
            Supplier<Duration> defaultWaitTime) {
        this.operations = Objects.requireNonNull(operations, "operations must not be null");
        this.template = SingletonSupplier.of(Objects.requireNonNull(template, "template must not be null"));
        this.defaultWaitTime = SingletonSupplier.of(Objects.requireNonNull(defaultWaitTime,
                "defaultWaitTime must not be null"));
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        Method method = invocation.getMethod();
        LockOperation operation = (target != null)
                ? this.operations.getOperation(method, AopUtils.getTargetClass(target)) : null;
        if (operation == null) {
            return invocation.proceed();
        }
        LockTemplate template = this.template.get();
        @Nullable Object[] args = invocation.getArguments();
        DistributedLock lock = this.operations.resolver().resolve(operation, args, target, template.client());
        Duration waitTime = (operation.waitTime() != null) ? operation.waitTime() : this.defaultWaitTime.get();
        boolean[] entered = new boolean[1];
        try {
            return template.<@Nullable Object, Throwable>execute(lock, waitTime, operation.leaseTime(), (lease) -> {
                entered[0] = true;
                return proceedHolding(invocation, lease);
            });
        }
        catch (LockNotAcquiredException ex) {
            if (entered[0]) {
                throw ex;
            }
            return notAcquired(operation, target, args, ex);
        }
    }

    private static @Nullable Object proceedHolding(MethodInvocation invocation, LockLease lease) throws Throwable {
        LockLease outer = LockContext.bind(lease);
        try {
            return invocation.proceed();
        }
        finally {
            LockContext.restore(outer);
        }
    }

    private static @Nullable Object notAcquired(LockOperation operation, Object target, @Nullable Object[] args,
            LockNotAcquiredException ex) throws Throwable {
        switch (operation.onNotAcquired()) {
            case SKIP -> {
                logger.debug("Skipped {}: {}", operation.description(), ex.getMessage());
                return operation.returnsOptional() ? Optional.empty() : null;
            }
            case FALLBACK -> {
                logger.debug("Calling fallback of {}: {}", operation.description(), ex.getMessage());
                return callFallback(operation, target, args, ex);
            }
            default -> throw ex;
        }
    }

    private static @Nullable Object callFallback(LockOperation operation, Object target, @Nullable Object[] args,
            LockNotAcquiredException ex) throws Throwable {
        Method fallback = Objects.requireNonNull(operation.fallback());
        @Nullable Object[] fallbackArgs = args;
        if (operation.fallbackTakesException()) {
            fallbackArgs = Arrays.copyOf(args, args.length + 1);
            fallbackArgs[args.length] = ex;
        }
        try {
            return fallback.invoke(target, fallbackArgs);
        }
        catch (InvocationTargetException invocationFailure) {
            throw invocationFailure.getTargetException();
        }
    }
}
