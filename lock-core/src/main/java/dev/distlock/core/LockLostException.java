package dev.distlock.core;

/**
 * A lease on the lock was lost before it was released (expired, deleted, taken over), so the work done under it may
 * have overlapped with another holder's. Thrown when closing a lost lease and when a thread re-enters a lock whose
 * lease it has lost.
 */
public class LockLostException extends LockException {

    private static final long serialVersionUID = 1L;

    private final long fencingToken;

    public LockLostException(String lockName, long fencingToken, String detail) {
        super(lockName, "Lease on lock '" + lockName + "' (fencing token " + fencingToken + ") was lost: " + detail,
                null);
        this.fencingToken = fencingToken;
    }

    /** The fencing token of the lost hold. */
    public long fencingToken() {
        return this.fencingToken;
    }
}
