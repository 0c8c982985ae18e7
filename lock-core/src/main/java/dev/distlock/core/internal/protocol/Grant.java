package dev.distlock.core.internal.protocol;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * A successful acquire as Redis answered it.
 *
 * @param owner the owner token written to the lock key
 * @param fencingToken the token minted for this acquisition, or {@link #UNMINTED} / {@link #UNMINTED_HANDED_OVER}
 * when it is minted on the holder's request (see {@link #isMinted})
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

    /**
     * The token of a hold taken without one on the uncontended path ({@code take.lua}, stored {@code owner|}): it is
     * minted when the holder first asks for it, and until then the hold is released by a compare-and-delete.
     */
    public static final long UNMINTED = -1;

    /**
     * The token of a hold handed over without one ({@code lib/offer.lua}, stored {@code owner|-}): it is minted when
     * the holder first asks for it; the hold is released by the handover script like any other.
     */
    public static final long UNMINTED_HANDED_OVER = -2;

    /** Whether {@code token} is a minted fencing token rather than one left to the holder's request. */
    public static boolean isMinted(long token) {
        return token >= 0;
    }

    /**
     * The fencing token a script reported: digits, or {@code ''} / {@code '-'} for one left to the holder's request.
     */
    public static long parseToken(String token) {
        if (token.isEmpty()) {
            return UNMINTED;
        }
        return token.equals("-") ? UNMINTED_HANDED_OVER : Long.parseLong(token);
    }

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
