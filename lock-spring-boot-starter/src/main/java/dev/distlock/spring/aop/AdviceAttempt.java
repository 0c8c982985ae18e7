package dev.distlock.spring.aop;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import dev.distlock.core.RedisLock;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.spring.annotation.LockAdviceListener;
import dev.distlock.spring.annotation.LockAdviceListener.Outcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One acquisition attempt of an advised call: times it and tells the {@link LockAdviceListener}s. */
final class AdviceAttempt {

    private static final Logger logger = LoggerFactory.getLogger(AdviceAttempt.class);

    private final String declaration;

    private final List<LockAdviceListener> listeners;

    private final boolean reentry;

    private final SkippedRuns skippedRuns;

    private final long startedAt = System.nanoTime();

    private volatile boolean entered;

    AdviceAttempt(String declaration, List<LockAdviceListener> listeners, RedisLock lock, SkippedRuns skippedRuns) {
        this.declaration = declaration;
        this.listeners = listeners;
        this.skippedRuns = skippedRuns;
        // A re-entered hold is already watched by the listener registered when it was first acquired.
        this.reentry = !listeners.isEmpty() && lock.isHeldByCurrentThread();
    }

    /** Whether the lock was acquired and the method entered; a later not-acquired error is then the method's own. */
    boolean entered() {
        return this.entered;
    }

    /**
     * Runs {@code acquisition} and reports its outcome: acquired (and the method entered), not acquired, or failed.
     *
     * @throws LockNotAcquiredException if the lock stayed busy, for the caller to turn into the declared outcome
     */
    LockLease acquire(Supplier<LockLease> acquisition) {
        LockLease lease;
        try {
            lease = acquisition.get();
        }
        catch (LockNotAcquiredException ex) {
            finished(Outcome.NOT_ACQUIRED);
            throw ex;
        }
        catch (Throwable ex) {
            finished(Outcome.FAILED);
            throw ex;
        }
        acquired(lease);
        return lease;
    }

    void acquired(LockLease lease) {
        this.entered = true;
        finished(Outcome.ACQUIRED);
        if (!this.reentry) {
            for (LockAdviceListener listener : this.listeners) {
                lease.addLossListener((loss) -> safely(() -> listener.leaseLost(this.declaration, loss)));
            }
        }
    }

    /**
     * Reports the losses of {@code kept}, a lease that holds the lock on after the method returned (the rest of a
     * minimum hold), like those of the call's own lease.
     */
    void watchKept(LockLease kept) {
        for (LockAdviceListener listener : this.listeners) {
            kept.addLossListener((loss) -> safely(() -> listener.leaseLost(this.declaration, loss)));
        }
    }

    /** Reports a skipped run of a scheduled method. */
    void skippedScheduledRun(LockOperation operation, LockNotAcquiredException ex) {
        this.skippedRuns.skipped(operation, ex, this.listeners);
    }

    /** Reports a failure before the method was entered; nothing once it was. */
    void failedUnlessEntered() {
        if (!this.entered) {
            finished(Outcome.FAILED);
        }
    }

    void finished(Outcome outcome) {
        if (this.listeners.isEmpty()) {
            return;
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - this.startedAt);
        for (LockAdviceListener listener : this.listeners) {
            safely(() -> listener.acquireFinished(this.declaration, outcome, elapsed));
        }
    }

    private static void safely(Runnable call) {
        try {
            call.run();
        }
        catch (RuntimeException ex) {
            logger.warn("A LockAdviceListener failed; ignoring it", ex);
        }
    }
}
