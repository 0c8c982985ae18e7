package dev.distlock.spring.aop;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
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
        boolean suspending = this.operation.returnKind() == ReturnKind.MONO
                && SuspendingFunctions.isSuspending(fallback);
        @Nullable Object[] fallbackArgs = this.args;
        if (this.operation.fallbackTakesException()) {
            // a suspend fun's Continuation stays last
            int at = suspending ? this.args.length - 1 : this.args.length;
            fallbackArgs = new Object[this.args.length + 1];
            System.arraycopy(this.args, 0, fallbackArgs, 0, at);
            fallbackArgs[at] = ex;
            System.arraycopy(this.args, at, fallbackArgs, at + 1, this.args.length - at);
        }
        if (suspending) {
            return SuspendingFunctions.invoke(fallback, this.target, fallbackArgs);
        }
        try {
            return fallback.invoke(this.target, fallbackArgs);
        }
        catch (InvocationTargetException invocationFailure) {
            throw invocationFailure.getTargetException();
        }
    }
}
