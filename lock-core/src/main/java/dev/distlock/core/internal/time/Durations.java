package dev.distlock.core.internal.time;

import java.time.Duration;

import dev.distlock.core.LockClientOptions;
import org.jspecify.annotations.Nullable;

/** Validation and conversion of the durations users hand to the API. */
public final class Durations {

    /** Longest lease accepted; anything longer is almost certainly a unit mistake. */
    public static final Duration MAX_LEASE = LockClientOptions.MAX_LEASE_TIME;

    private Durations() {
    }

    /** Rejects null, zero and negative durations, naming the argument. */
    public static Duration requirePositive(String what, @Nullable Duration duration) {
        if (duration == null) {
            throw new IllegalArgumentException(what + " must not be null");
        }
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, was " + duration);
        }
        return duration;
    }

    /** Rejects null and negative durations; zero is allowed (for wait times: one attempt). */
    public static Duration requireNonNegative(String what, @Nullable Duration duration) {
        if (duration == null) {
            throw new IllegalArgumentException(what + " must not be null");
        }
        if (duration.isNegative()) {
            throw new IllegalArgumentException(what + " must not be negative, was " + duration
                    + " (use zero for a single attempt)");
        }
        return duration;
    }

    /** Shortest lease that outlasts the drift margin (lease/100 + 2 ms) and a loopback round trip. */
    public static final Duration MIN_LEASE = LockClientOptions.MIN_LEASE_TIME;

    /**
     * A lease: at least {@link #MIN_LEASE}, at most {@link #MAX_LEASE}, in whole milliseconds rounded up so a
     * fraction of a millisecond is never lost.
     */
    public static long leaseMillis(String what, @Nullable Duration lease) {
        requirePositive(what, lease);
        if (lease.compareTo(MIN_LEASE) < 0) {
            throw new IllegalArgumentException(what + " " + lease + " is shorter than the minimum " + MIN_LEASE
                    + ": a lease must outlast the clock-drift margin and a round trip to Redis to be held at all");
        }
        if (lease.compareTo(MAX_LEASE) > 0) {
            throw new IllegalArgumentException(what + " " + lease + " is longer than the maximum " + MAX_LEASE
                    + "; use no lease time for a watchdog-renewed lock that lives as long as its holder");
        }
        return ceilMillis(lease);
    }

    /** Whole milliseconds, rounded up, so sub-millisecond durations never round to zero. */
    public static long ceilMillis(Duration duration) {
        long millis = duration.toMillis();
        return duration.minusMillis(millis).isZero() ? millis : millis + 1;
    }

    /**
     * Nanoseconds, saturating at {@link Long#MAX_VALUE} / 4 so deadline arithmetic on {@code nanoTime} cannot
     * overflow.
     */
    public static long saturatedNanos(Duration duration) {
        long cap = Long.MAX_VALUE / 4;
        if (duration.compareTo(Duration.ofNanos(cap)) >= 0) {
            return cap;
        }
        return duration.toNanos();
    }
}
