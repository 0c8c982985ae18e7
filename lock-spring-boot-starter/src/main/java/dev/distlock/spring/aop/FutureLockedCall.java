package dev.distlock.spring.aop;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.distlock.core.RedisLock;
import dev.distlock.core.LockInterruptedException;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.LockOperationException;
import dev.distlock.core.LostLeasePolicy;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a method returning {@code CompletionStage}/{@code CompletableFuture} under its lock, and holds the lock until
 * the returned stage completes.
 *
 * <p>The calling thread waits for the lock like for a synchronous method (use {@code Mono} for acquisition without
 * a waiting thread), then runs the method, which starts the work. The lease belongs to the call, not to the thread
 * (an asynchronous acquisition), so the thread may return and take other locks while the work runs; if the thread
 * already holds the lock, the call re-enters it. The advice returns a new {@code CompletableFuture} that completes
 * with the method's outcome once the lock has been released, exactly once. Cancelling it cancels the method's future
 * (when it is a {@code CompletableFuture}) and releases the lock.
 *
 * <p>The release is sent without blocking the thread that completes the method's stage (often an I/O event loop);
 * the advice's future completes once Redis answered it, on the thread that received the answer.
 *
 * <p>Lost lease: {@code FAIL} completes the future with {@link LockLostException} instead of the value;
 * {@code INTERRUPT} cancels the method's future at the moment of loss and completes with {@link LockLostException};
 * {@code IGNORE} only logs.
 */
final class FutureLockedCall {

    private static final Logger logger = LoggerFactory.getLogger(FutureLockedCall.class);

    private FutureLockedCall() {
    }

    static @Nullable Object run(LockedCall call, Duration operationTimeout, AdviceAttempt attempt) throws Throwable {
        LockLease lease;
        try {
            lease = attempt.acquire(() -> acquire(call.lock(), call.waitTime(), call.leaseTime(), operationTimeout));
        }
        catch (LockNotAcquiredException ex) {
            return call.notAcquired(ex, null, attempt);
        }
        Release release = new Release(lease, call.policy());
        Object returned;
        try {
            returned = call.proceedHolding(lease);
        }
        catch (Throwable ex) {
            release.afterFailure(ex);
            throw ex;
        }
        if (returned == null) {
            Throwable lost = release.runNow();
            if (lost != null) {
                throw lost;
            }
            return null;
        }
        return holdUntilComplete((CompletionStage<?>) returned, lease, release, call.policy());
    }

    private static CompletableFuture<@Nullable Object> holdUntilComplete(CompletionStage<?> work, LockLease lease,
            Release release, LostLeasePolicy policy) {
        CompletableFuture<@Nullable Object> result = new CompletableFuture<>();
        if (policy == LostLeasePolicy.INTERRUPT) {
            lease.addLossListener((loss) -> cancel(work));
        }
        result.whenComplete((value, ex) -> {
            if (ex instanceof CancellationException) {
                cancel(work);
                release.run();
            }
        });
        // The thread that completes the work may be an I/O event loop: it only sends the release, and the result
        // completes when Redis answered it.
        work.whenComplete((value, ex) -> release.run().thenAccept((lost) -> {
            if (ex != null) {
                Throwable failure = unwrap(ex);
                if (lost != null && lost != failure) {
                    failure.addSuppressed(lost);
                }
                result.completeExceptionally((lost != null && failure instanceof CancellationException) ? lost
                        : failure);
            }
            else if (lost != null) {
                result.completeExceptionally(lost);
            }
            else {
                result.complete(value);
            }
        }));
        return result;
    }

    private static void cancel(CompletionStage<?> work) {
        if (work instanceof CompletableFuture<?> future) {
            future.cancel(true);
        }
    }

    private static Throwable unwrap(Throwable ex) {
        return (ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex;
    }

    /**
     * An acquisition owned by the call: asynchronous (not tied to the thread) unless the thread already holds the
     * lock, in which case it re-enters.
     */
    private static LockLease acquire(RedisLock lock, Duration waitTime, @Nullable Duration leaseTime,
            Duration operationTimeout) {
        if (lock.isHeldByCurrentThread()) {
            return DistributedLockInterceptor.acquire(lock, waitTime, leaseTime);
        }
        CompletableFuture<LockLease> lease = ((leaseTime != null) ? lock.acquireAsync(waitTime, leaseTime)
                : lock.acquireAsync(waitTime)).toCompletableFuture();
        long boundNanos = saturatedAdd(waitTime.toNanos(), operationTimeout.multipliedBy(2).toNanos());
        try {
            return lease.get(boundNanos, TimeUnit.NANOSECONDS);
        }
        catch (InterruptedException ex) {
            lease.cancel(false);
            Thread.currentThread().interrupt();
            throw new LockInterruptedException(lock.name(), ex);
        }
        catch (TimeoutException ex) {
            lease.cancel(false);
            throw new LockOperationException(lock.name(), "Acquiring lock '" + lock.name() + "' did not finish within"
                    + " its wait time plus the operation timeout; the attempt was abandoned", ex);
        }
        catch (ExecutionException ex) {
            Throwable cause = unwrap(ex.getCause());
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new LockOperationException(lock.name(), "Acquiring lock '" + lock.name() + "' failed: " + cause,
                    cause);
        }
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return (((a ^ sum) & (b ^ sum)) < 0) ? Long.MAX_VALUE : sum;
    }

    /** Releases the lease exactly once, whichever of completion, cancel or failure comes first. */
    private static final class Release {

        private final AtomicBoolean done = new AtomicBoolean();

        private final LockLease lease;

        private final LostLeasePolicy policy;

        Release(LockLease lease, LostLeasePolicy policy) {
            this.lease = lease;
            this.policy = policy;
        }

        /**
         * Sends the release without waiting for it; the stage completes with the loss to report (null if none, or if
         * the policy ignores it, or if already done), never exceptionally.
         */
        CompletableFuture<@Nullable Throwable> run() {
            if (!this.done.compareAndSet(false, true)) {
                return CompletableFuture.completedFuture(null);
            }
            CompletableFuture<Void> closing;
            try {
                closing = this.lease.closeAsync().toCompletableFuture();
            }
            catch (RuntimeException ex) {
                closing = CompletableFuture.failedFuture(ex);
            }
            return closing.handle((ignored, ex) -> (ex != null) ? lossToReport(unwrap(ex)) : null);
        }

        /** Releases on the calling thread (the caller's own, which already waited for the lock). */
        @Nullable Throwable runNow() {
            return run().join();
        }

        private @Nullable Throwable lossToReport(Throwable failure) {
            if (failure instanceof LockLostException) {
                return (this.policy == LostLeasePolicy.IGNORE) ? null : failure;
            }
            logger.warn("Releasing lock '{}' failed", this.lease.name(), failure);
            return null;
        }

        void afterFailure(Throwable failure) {
            Throwable lost = runNow();
            if (lost != null) {
                failure.addSuppressed(lost);
            }
        }
    }
}
