package dev.distlock.core;

/**
 * What {@link LockTemplate} does when the lease of a running callback is lost. Every loss is also logged at WARN with
 * the lock name and fencing token, whatever the policy.
 */
public enum LostLeasePolicy {

    /** Let the callback finish, then throw {@link LockLostException} instead of returning its result (fail closed). */
    FAIL,

    /** Interrupt the thread running the callback at the moment of loss, then behave like {@link #FAIL}. */
    INTERRUPT,

    /** Only log; the callback's result is returned. For work that is idempotent or fenced downstream. */
    IGNORE
}
