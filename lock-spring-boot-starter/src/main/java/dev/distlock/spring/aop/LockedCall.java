package dev.distlock.spring.aop;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import dev.distlock.core.RedisLock;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.LostLeasePolicy;
import dev.distlock.spring.annotation.LockContext;
import dev.distlock.spring.annotation.OnNotAcquired;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.aop.ProxyMethodInvocation;

/**
 * One intercepted call of an annotated method, resolved: the lock, the wait and lease, the policy, and how to run the
 * method or what to return instead of it.
 *
 * @param invocation the intercepted invocation
 * @param operation the validated declaration
 * @param lock the lock of this call (keys evaluated)
 * @param waitTime the wait time
 * @param leaseTime a fixed lease, or null for a watchdog-renewed one
 * @param policy what to do when the lease is lost while the work runs
 * @param target the target object
 * @param args the call's arguments
 */
record LockedCall(MethodInvocation invocation, LockOperation operation, RedisLock lock, Duration waitTime,
        @Nullable Duration leaseTime, LostLeasePolicy policy, Object target, @Nullable Object[] args) {

    private static final Logger logger = LoggerFactory.getLogger(LockedCall.class);

    /** Runs the method with {@code lease} bound to {@link LockContext} (for the synchronous part of the call). */
    @Nullable Object proceedHolding(LockLease lease) throws Throwable {
        return proceedHolding(this.invocation, lease);
    }

    /**
     * Like {@link #proceedHolding(LockLease)} on a fresh copy of the invocation, so the method can be run once per
     * subscription of a publisher it returns.
     */
    @Nullable Object proceedCopyHolding(LockLease lease) throws Throwable {
        MethodInvocation copy = (this.invocation instanceof ProxyMethodInvocation proxied)
                ? proxied.invocableClone() : this.invocation;
        return proceedHolding(copy, lease);
    }

    private static @Nullable Object proceedHolding(MethodInvocation invocation, LockLease lease) throws Throwable {
        return LockContext.callWith(lease, invocation::proceed);
    }

    /**
     * What the call returns when the lock stayed busy: the declaration's {@link OnNotAcquired} outcome, of the
     * method's return kind ({@code emptyPublisher} for a skipped {@code Mono} or {@code Flux}).
     */
    @Nullable Object notAcquired(LockNotAcquiredException ex, @Nullable Object emptyPublisher, AdviceAttempt attempt)
            throws Throwable {
        switch (this.operation.onNotAcquired()) {
            case SKIP -> {
                if (this.operation.scheduled()) {
                    attempt.skippedScheduledRun(this.operation, ex);
                }
                else {
                    logger.debug("Skipped {}: {}", this.operation.description(), ex.getMessage());
                }
                return switch (this.operation.returnKind()) {
                    case VALUE -> this.operation.returnsOptional() ? Optional.empty() : null;
                    case COMPLETION_STAGE -> CompletableFuture.completedFuture(null);
                    case MONO, FLUX -> emptyPublisher;
                };
            }
            case FALLBACK -> {
                logger.debug("Calling fallback of {}: {}", this.operation.description(), ex.getMessage());
                return callFallback(ex);
            }
            default -> throw ex;
        }
    }

    private @Nullable Object callFallback(LockNotAcquiredException ex) throws Throwable {
        Method fallback = Objects.requireNonNull(this.operation.fallback());
        @Nullable Object[] fallbackArgs = this.args;
        if (this.operation.fallbackTakesException()) {
            fallbackArgs = Arrays.copyOf(this.args, this.args.length + 1);
            fallbackArgs[this.args.length] = ex;
        }
        try {
            return fallback.invoke(this.target, fallbackArgs);
        }
        catch (InvocationTargetException invocationFailure) {
            throw invocationFailure.getTargetException();
        }
    }
}
