package dev.distlock.core;

/**
 * What was lost and why.
 *
 * @param lockName the lock name
 * @param fencingToken the token of the lost hold
 * @param reason why the lease is no longer valid
 */
public record LeaseLoss(String lockName, long fencingToken, Reason reason) {

    /** Why a lease was lost. */
    public enum Reason {
        /**
         * A renewal, or the ownership check of a fixed lease, found the key gone or owned by someone else (deleted,
         * flushed, force-unlocked, taken over) before the lease was due to end.
         */
        RENEWAL_REFUSED,
        /**
         * The validity deadline passed without a successful renewal (Redis unreachable or slow, or a fixed lease ran
         * out).
         */
        EXPIRED,
        /** The thread that acquired the lock terminated without releasing it; the client released it. */
        HOLDER_THREAD_DIED
    }
}
