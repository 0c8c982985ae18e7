package dev.distlock.core;

import java.time.Duration;

/** The lock was held by another owner for the whole wait time. Nothing was written to Redis on the caller's behalf. */
public class LockNotAcquiredException extends LockException {

    private static final long serialVersionUID = 1L;

    private final Duration waitTime;

    public LockNotAcquiredException(String lockName, Duration waitTime) {
        super(lockName, "Lock '" + lockName + "' was not acquired within " + waitTime
                + ": another owner held it for the whole wait. Increase the wait time or handle the contention.", null);
        this.waitTime = waitTime;
    }

    /** How long the caller waited. */
    public Duration waitTime() {
        return this.waitTime;
    }
}
