package dev.distlock.core.internal.protocol;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * A successful acquire as Redis answered it.
 *
 * @param owner the owner token written to the lock key
 * @param fencingToken the token minted for this acquisition, or {@link #UNMINTED} when it is minted on the holder's
 * request (the uncontended path of a queued lock)
 * @param sentAtNanos {@code System.nanoTime()} just before the request was sent: validity counts from here
 * @param confirmation for a handoff the holder runs on before it confirmed the offer: when and how to confirm it;
 * null when the grant needs no confirmation
 */
public record Grant(String owner, long fencingToken, long sentAtNanos, @Nullable Confirmation confirmation) {

    /**
     * The confirmation a handed-over holder owes its offer, due at {@code dueNanos} ({@code System.nanoTime()}) and not
     * sent at all if the hold ends before: a holder done within half its offer never needs the full lease.
     *
     * @param dueNanos when to send it: at the latest when half the validity left at the grant has passed
     * @param send sends it; completes with its send time (validity counts from there on), or -1 when Redis refused it
     * (the offer was no longer this owner's)
     */
    public record Confirmation(long dueNanos, Supplier<CompletableFuture<Long>> send) {
    }

    public Grant(String owner, long fencingToken, long sentAtNanos) {
        this(owner, fencingToken, sentAtNanos, null);
    }

    /** The token of a hold granted without one: it is minted when the holder first asks for it. */
    public static final long UNMINTED = -1;

    /** Whether the lease, counted from the send time less drift, was over on arrival: using it would be unprotected. */
    public boolean expiredOnArrival(long leaseMillis) {
        return this.sentAtNanos + TimeUnit.MILLISECONDS.toNanos(leaseMillis) - driftNanos(leaseMillis)
                - System.nanoTime() <= 0;
    }

    /** Same margin as the Redis RedLock algorithm: clocks drift, and key expiry is not instantaneous. */
    public static long driftNanos(long leaseMillis) {
        return TimeUnit.MILLISECONDS.toNanos(leaseMillis) / 100 + TimeUnit.MILLISECONDS.toNanos(2);
    }
}
