package dev.distlock.core;

import org.jspecify.annotations.Nullable;

/** Base of every exception the lock API throws. Unchecked, so it fits Spring's exception translation style. */
public abstract class LockException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String lockName;

    protected LockException(String lockName, String message, @Nullable Throwable cause) {
        super(message, cause);
        this.lockName = lockName;
    }

    /** The lock the failed operation was about. */
    public String lockName() {
        return this.lockName;
    }
}
