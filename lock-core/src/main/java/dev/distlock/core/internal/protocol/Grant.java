package dev.distlock.core.internal.protocol;

import java.util.concurrent.TimeUnit;

import dev.distlock.core.internal.hold.Hold;

/**
 * A successful acquire as Redis answered it.
 *
 * @param owner the owner token written to the lock key
 * @param fencingToken the token minted for this acquisition
 * @param sentAtNanos {@code System.nanoTime()} just before the request was sent: validity counts from here
 */
public record Grant(String owner, long fencingToken, long sentAtNanos) {

    /** Whether the lease, counted from the send time less drift, was over on arrival: using it would be unprotected. */
    public boolean expiredOnArrival(long leaseMillis) {
        return this.sentAtNanos + TimeUnit.MILLISECONDS.toNanos(leaseMillis) - Hold.driftNanos(leaseMillis)
                - System.nanoTime() <= 0;
    }
}
