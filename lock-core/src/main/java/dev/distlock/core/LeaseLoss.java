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
        /** Redis said the key is gone or owned by someone else (deleted, expired, flushed, taken over). */
        RENEWAL_REFUSED,
        /** The validity deadline passed without a successful renewal (Redis unreachable or slow, or a fixed lease ran out). */
        EXPIRED,
        /** The thread that acquired the lock terminated without releasing it; the client released it. */
        HOLDER_THREAD_DIED
    }
}
