package dev.distlock.spring.aop;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

import dev.distlock.core.RedisLock;
import dev.distlock.core.LockInterruptedException;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.LockTemplate;
import dev.distlock.core.LostLeasePolicy;
import dev.distlock.core.RedLockClient;
import dev.distlock.core.internal.hold.LeaseLossInterrupter;
import dev.distlock.spring.annotation.DistributedLock;
import dev.distlock.spring.annotation.LockAdviceListener;
import dev.distlock.spring.annotation.LockAdviceListener.Outcome;
import dev.distlock.spring.annotation.LockContext;
import dev.distlock.spring.annotation.LockType;
import dev.distlock.spring.annotation.OnNotAcquired;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.util.ClassUtils;

/**
 * Runs {@link DistributedLock @DistributedLock} methods under their lock through
 * {@link LockTemplate#execute(RedisLock, Duration, Duration, dev.distlock.core.LockCallback)}, so the lock is
 * released when the method returns or throws and a lost lease is handled by the template's
 * {@link dev.distlock.core.LostLeasePolicy}. When the call runs inside a surrounding transaction (a transaction
 * synchronization is active, e.g. a {@code REQUIRED} {@code @Transactional} caller), the lock is instead released when
 * that transaction completes, so no other holder can enter before the work is committed; a lease lost before the
 * commit then rolls the transaction back (unless the policy is {@code IGNORE}). Declarations without a wait or
 * lease time use the template's defaults.
 * While the method runs, its lease is available from {@link LockContext#currentLease()}.
 *
 * <p>When the lock is not acquired within the wait time the method does not run, and the declaration's
 * {@link OnNotAcquired} decides the outcome. A {@link LockNotAcquiredException} thrown by the method itself (from a
 * lock it takes inside) is passed through unchanged.
 *
 * <p>A declaration with {@link DistributedLock#holdAtLeast() holdAtLeast} keeps its lock after a run that ended
 * earlier, for the rest of that time (see {@link MinimumHolds}); a skipped run of a {@code @Scheduled} method is
 * logged and reported as such.
 *
 * <p>Every acquisition attempt, and the loss of every lease it acquired, is reported to the
 * {@link LockAdviceListener}s.
 *
 * <p>The template, the RedLock client and the listeners are looked up at the first call, so this interceptor can be
 * created early (as advisors are) without pulling the Redis connection into the bean post-processing phase.
 *
 * <p>Infrastructure, not API: public only so that the auto-configuration ({@code dev.distlock.spring.boot}) can declare
 * it as a bean that an application may replace; it may change in any release.
 */
public final class DistributedLockInterceptor implements MethodInterceptor, DisposableBean {

    private static final Logger logger = LoggerFactory.getLogger(DistributedLockInterceptor.class);

    private static final boolean TRANSACTIONS_PRESENT = ClassUtils.isPresent(
            "org.springframework.transaction.support.TransactionSynchronizationManager",
            DistributedLockInterceptor.class.getClassLoader());

    private final LockOperationSource operations;

    private final Supplier<LockTemplate> template;

    private final Supplier<Optional<RedLockClient>> redLockClient;

    private final Supplier<List<LockAdviceListener>> listeners;

    private final SkippedRuns skippedRuns = new SkippedRuns();

    private final MinimumHolds minimumHolds = new MinimumHolds();

    /**
     * An interceptor without {@link LockType#REDLOCK} support and without listeners.
     *
     * @param operations where the annotated methods' validated declarations come from
     * @param template the template that runs the methods (looked up once, at the first call)
     */
    public DistributedLockInterceptor(LockOperationSource operations, Supplier<LockTemplate> template) {
        this(operations, template, () -> null, List::of);
    }

    /**
     * @param operations where the annotated methods' validated declarations come from
     * @param template the template that runs the methods (looked up once, at the first call)
     * @param redLockClient the client of {@link LockType#REDLOCK} methods, or null if there is none (looked up once,
     * at the first RedLock call)
     * @param listeners told about every acquisition and lease loss (looked up once, at the first call)
     */
    public DistributedLockInterceptor(LockOperationSource operations, Supplier<LockTemplate> template,
            Supplier<@Nullable RedLockClient> redLockClient, Supplier<List<LockAdviceListener>> listeners) {
        this.operations = Objects.requireNonNull(operations, "operations must not be null");
        this.template = new LazyLookup<>(Objects.requireNonNull(template, "template must not be null"));
        Objects.requireNonNull(redLockClient, "redLockClient must not be null");
        this.redLockClient = new LazyLookup<>(() -> Optional.ofNullable(redLockClient.get()));
        Objects.requireNonNull(listeners, "listeners must not be null");
        this.listeners = new LazyLookup<>(() -> List.copyOf(listeners.get()));
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        Method method = invocation.getMethod();
        if (target == null) {
            refuseWithoutTarget(method);
            return invocation.proceed();
        }
        LockOperation operation = this.operations.getOperation(method, AopUtils.getTargetClass(target));
        if (operation == null) {
            return invocation.proceed();
        }
        LockTemplate template = this.template.get();
        @Nullable Object[] args = invocation.getArguments();
        RedisLock lock = this.operations.resolver().resolve(operation, args, target, template.client(),
                this::requireRedLockClient);
        Duration waitTime = (operation.waitTime() != null) ? operation.waitTime() : template.defaultWaitTime();
        Duration leaseTime = (operation.leaseTime() != null) ? operation.leaseTime() : template.defaultLeaseTime();
        LockedCall call = new LockedCall(invocation, operation, lock, waitTime, leaseTime,
                template.lostLeasePolicy(), target, args);
        List<LockAdviceListener> listeners = this.listeners.get();
        switch (operation.returnKind()) {
            case MONO, FLUX -> {
                return ReactiveLockedCall.run(call, template,
                        () -> new AdviceAttempt(operation.declaration(), listeners, lock, this.skippedRuns));
            }
            case COMPLETION_STAGE -> {
                return FutureLockedCall.run(call, template.client().options().operationTimeout(),
                        new AdviceAttempt(operation.declaration(), listeners, lock, this.skippedRuns));
            }
            default -> {
                AdviceAttempt attempt = new AdviceAttempt(operation.declaration(), listeners, lock, this.skippedRuns);
                Duration kept = this.minimumHolds.keeping(lock.name());
                if (kept != null) {
                    // this instance keeps the lock for a minimum hold; its thread must not re-enter it
                    attempt.finished(Outcome.NOT_ACQUIRED);
                    return call.notAcquired(new LockNotAcquiredException(lock.name(), waitTime,
                            template.client().options().instanceId(), kept), null, attempt);
                }
                if (TRANSACTIONS_PRESENT && ReleaseAfterTransaction.isActive()) {
                    return invokeReleasingAfterTransaction(call, attempt);
                }
                return invokeReleasingOnReturn(call, template, attempt);
            }
        }
    }

    private @Nullable Object invokeReleasingOnReturn(LockedCall call, LockTemplate template, AdviceAttempt attempt)
            throws Throwable {
        // a nested call that re-enters a held lock leaves its release, and any minimum hold, to the outer call
        boolean keepAfterRun = call.operation().holdAtLeast() != null && !call.lock().isHeldByCurrentThread();
        try {
            return template.<@Nullable Object, Throwable>execute(call.lock(), call.waitTime(), call.leaseTime(),
                    (lease) -> {
                        attempt.acquired(lease);
                        long acquiredAt = System.nanoTime();
                        try {
                            return call.proceedHolding(lease);
                        }
                        finally {
                            if (keepAfterRun) {
                                this.minimumHolds.keepAfterRun(call, lease, acquiredAt, attempt);
                            }
                        }
                    });
        }
        catch (LockNotAcquiredException ex) {
            if (attempt.entered()) {
                throw ex;
            }
            attempt.finished(Outcome.NOT_ACQUIRED);
            return call.notAcquired(ex, null, attempt);
        }
        catch (Throwable ex) {
            attempt.failedUnlessEntered();
            throw ex;
        }
    }

    /**
     * Inside a surrounding transaction the method's work commits with that transaction, not when the method returns:
     * the lease is released when the transaction completes (see {@link ReleaseAfterTransaction}).
     */
    private static @Nullable Object invokeReleasingAfterTransaction(LockedCall call, AdviceAttempt attempt)
            throws Throwable {
        LockLease lease;
        try {
            lease = attempt.acquire(() -> acquire(call.lock(), call.waitTime(), call.leaseTime()));
        }
        catch (LockNotAcquiredException ex) {
            return call.notAcquired(ex, null, attempt);
        }
        LostLeasePolicy policy = call.policy();
        ReleaseAfterTransaction.register(lease, policy);
        LeaseLossInterrupter interrupter = LeaseLossInterrupter.forPolicy(policy, lease);
        Object result;
        try {
            result = call.proceedHolding(lease);
        }
        finally {
            LeaseLossInterrupter.stop(interrupter);
        }
        if (!lease.isHeld() && policy != LostLeasePolicy.IGNORE) {
            throw new LockLostException(lease.name(), lease.fencingToken(), "it was lost while "
                    + call.operation().description() + " ran; the lock is released when the surrounding transaction"
                    + " ends");
        }
        return result;
    }

    /** Acquires like {@code LockTemplate.execute}: empty becomes not-acquired, an interrupt stays visible. */
    static LockLease acquire(RedisLock lock, Duration waitTime, @Nullable Duration leaseTime) {
        Optional<LockLease> lease;
        try {
            lease = (leaseTime != null) ? lock.tryAcquire(waitTime, leaseTime) : lock.tryAcquire(waitTime);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new LockInterruptedException(lock.name(), ex);
        }
        return lease.orElseThrow(() -> new LockNotAcquiredException(lock.name(), waitTime));
    }

    /**
     * Releases the locks still kept for the rest of a {@link DistributedLock#holdAtLeast() minimum hold}: the
     * application is shutting down.
     */
    @Override
    public void destroy() {
        this.minimumHolds.close();
    }

    /**
     * A proxy without a target object (an interface-only proxy) cannot evaluate keys against a target or call a
     * fallback on it; running the method unlocked would silently drop the exclusion, so an annotated method fails.
     */
    private void refuseWithoutTarget(Method method) {
        if (this.operations.hasAnnotation(method, method.getDeclaringClass())) {
            throw new IllegalStateException("@DistributedLock method " + method.getDeclaringClass().getName() + "."
                    + method.getName() + " was called through a proxy without a target object, so its lock cannot"
                    + " be taken; the method was not called. @DistributedLock needs a proxied bean instance (not an"
                    + " interface-only proxy such as a repository or HTTP client interface): put it on a method of a"
                    + " class");
        }
    }

    private RedLockClient requireRedLockClient() {
        return this.redLockClient.get().orElseThrow(() -> new IllegalStateException("A @DistributedLock(type ="
                + " REDLOCK) method was called, but there is no RedLockClient: set distributed-lock.redlock.nodes"));
    }
}
