package dev.distlock.core;

/**
 * Told what happens to the leases of one {@link RedisLockClient}: acquired, released, lost, renewal failed. For
 * metrics, tracing and audit logs; register with {@link RedisLockClient#addEventListener}.
 *
 * <p>Calls run on the acquiring or releasing thread, or on the client's watchdog thread: they must be fast and must
 * not block or call Redis. An exception thrown by a listener is logged and ignored. Reentrant acquisitions of a hold
 * the thread already has are not reported again; {@link #released} is called when the last lease of a hold is
 * closed, just before the key is deleted, and not for a hold that was lost.
 */
public interface LockEventListener {

    /** A new hold was granted. */
    default void acquired(HeldLease lease) {
    }

    /** The last lease of a hold is being released (the owner-checked delete follows). */
    default void released(HeldLease lease) {
    }

    /** A hold was lost before it was released (expired, renewal refused, holder thread died). */
    default void lost(HeldLease lease, LeaseLoss loss) {
    }

    /** A watchdog renewal failed in transit (timeout, connection); it is retried until the lease ends. */
    default void renewalFailed(HeldLease lease, Throwable failure) {
    }
}
