package dev.distlock.spring.annotation;

import java.time.Duration;

import dev.distlock.core.LeaseLoss;
import dev.distlock.core.LockNotAcquiredException;

/**
 * Told about the lock acquisitions of {@link DistributedLock @DistributedLock} methods, for example to record metrics
 * (the starter's Micrometer support is one). Every bean of this type is called, in order, by the advice
 * ({@code DistributedLockInterceptor}).
 *
 * <p>Calls run on the caller's thread ({@link #acquireFinished}) or on a lock client thread ({@link #leaseLost}), so
 * implementations must be fast and must not block. An exception thrown by a listener is logged and ignored.
 *
 * <p>{@code declaration} identifies the annotated method with bounded cardinality: the annotation's static
 * {@link DistributedLock#name() name}, or {@code ClassName.methodName} when it has none. It is never the evaluated
 * key.
 */
public interface LockAdviceListener {

    /**
     * An acquisition attempt of an advised call has finished.
     *
     * @param declaration the static name, or {@code ClassName.methodName}
     * @param outcome whether the lock was acquired
     * @param elapsed how long the attempt took, including the wait
     */
    void acquireFinished(String declaration, Outcome outcome, Duration elapsed);

    /**
     * The lease of an advised call was lost before it was released. Called once per hold: a nested call that
     * re-entered a lock its thread already held does not report the same loss again.
     *
     * @param declaration the static name, or {@code ClassName.methodName}
     * @param loss what was lost and why
     */
    void leaseLost(String declaration, LeaseLoss loss);

    /**
     * A run of a {@code @Scheduled} method was skipped because the job's lock was held (by another instance, or by
     * this one for the rest of a {@link DistributedLock#holdAtLeast() minimum hold}). Called after
     * {@link #acquireFinished} reported {@link Outcome#NOT_ACQUIRED}, when the declaration's outcome is
     * {@link OnNotAcquired#SKIP}. Does nothing by default.
     *
     * @param declaration the static name, or {@code ClassName.methodName}
     * @param refusal the refusal, naming the holder's instance when known
     */
    default void scheduledRunSkipped(String declaration, LockNotAcquiredException refusal) {
    }

    /** How an acquisition attempt ended. */
    enum Outcome {

        /** The lock was acquired (or re-entered) and the method runs. */
        ACQUIRED,

        /** The lock stayed busy for the whole wait time; {@link OnNotAcquired} decides what happens. */
        NOT_ACQUIRED,

        /** The attempt failed: Redis unreachable or erroring, interrupted, or refused (e.g. a read lock upgrade). */
        FAILED
    }
}
