package dev.distlock.core.internal.waiting;

import java.time.Duration;

import dev.distlock.core.internal.time.Durations;

/**
 * What one acquisition asks for, fixed when it starts: a fresh owner token, the lease, and how long it may wait.
 *
 * @param owner the owner token this acquisition writes to Redis (fresh per acquisition)
 * @param leaseMillis the lease in milliseconds
 * @param waitTime how long the caller may wait; zero for a single attempt
 * @param deadlineNanos {@code System.nanoTime()} at which the wait ends
 * @param startNanos {@code System.nanoTime()} when it started: before any of its requests was sent
 */
record AcquisitionRequest(String owner, long leaseMillis, Duration waitTime, long deadlineNanos, long startNanos) {

    static AcquisitionRequest startingNow(String owner, long leaseMillis, Duration waitTime) {
        long now = System.nanoTime();
        return new AcquisitionRequest(owner, leaseMillis, waitTime, now + Durations.saturatedNanos(waitTime), now);
    }

    /** Whether the caller may wait at all (otherwise one attempt decides). */
    boolean willWait() {
        return !this.waitTime.isZero();
    }

    /** Nanoseconds left until the deadline; zero or less once it has passed. */
    long remainingNanos() {
        return this.deadlineNanos - System.nanoTime();
    }
}
