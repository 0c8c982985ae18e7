package dev.distlock.core;

import org.jspecify.annotations.Nullable;

/**
 * Redis could not be reached in time or answered with an error, so the outcome is not a lock decision. When an
 * acquisition fails this way, a possible grant is removed by an owner-checked release in the background.
 */
public class LockOperationException extends LockException {

    private static final long serialVersionUID = 1L;

    public LockOperationException(String lockName, String message, @Nullable Throwable cause) {
        super(lockName, message, cause);
    }
}
