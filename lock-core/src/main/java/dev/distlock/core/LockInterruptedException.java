package dev.distlock.core;

/**
 * Unchecked form of an interrupt during a wait, thrown by {@link LockTemplate} (which does not declare
 * {@link InterruptedException}). The thread's interrupt flag is set again before it is thrown; no grant is kept.
 */
public class LockInterruptedException extends LockException {

    private static final long serialVersionUID = 1L;

    public LockInterruptedException(String lockName, InterruptedException cause) {
        super(lockName, "Interrupted while waiting for lock '" + lockName + "'", cause);
    }
}
