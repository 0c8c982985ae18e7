package dev.distlock.spring.annotation;

import dev.distlock.core.LockNotAcquiredException;

/**
 * What a {@link DistributedLock @DistributedLock} method does when its lock stays busy for the whole wait time. In
 * every case the method body does not run.
 */
public enum OnNotAcquired {

    /**
     * The default: {@link #THROW}, or {@link #SKIP} on a method that also carries Spring's
     * {@link org.springframework.scheduling.annotation.Scheduled @Scheduled} (a scheduled run that finds the job
     * locked is skipped).
     */
    DEFAULT,

    /** Throw a {@link LockNotAcquiredException} naming the lock, the wait time and the holder's instance. */
    THROW,

    /**
     * Return without running the method: {@code null}, {@code Optional.empty()} for {@code Optional} methods, nothing
     * for {@code void} methods. Methods returning a primitive other than {@code void} are rejected at startup.
     */
    SKIP,

    /**
     * Call the method named by {@link DistributedLock#fallback()} on the same bean with the same arguments (and,
     * if it declares one, a trailing {@link LockNotAcquiredException} parameter), and return its result.
     */
    FALLBACK
}
