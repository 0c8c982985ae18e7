package dev.distlock.spring.aop;

import java.time.Duration;
import java.time.format.DateTimeParseException;

import dev.distlock.core.LockClientOptions;
import dev.distlock.spring.annotation.DistributedLock;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.env.PropertyResolver;

/**
 * Reads the {@code waitTime}, {@code leaseTime} and {@code holdAtLeast} attributes of
 * {@link DistributedLock @DistributedLock}: resolves {@code ${...}} placeholders, parses the duration ({@code "2s"},
 * {@code "500ms"}, {@code "PT2S"}) and checks its range (a lease within {@link LockClientOptions#MIN_LEASE_TIME} and
 * {@link LockClientOptions#MAX_LEASE_TIME}).
 */
final class LockDurations {

    private final PropertyResolver placeholders;

    /** @param placeholders resolves {@code ${...}} (the application's environment) */
    LockDurations(PropertyResolver placeholders) {
        this.placeholders = placeholders;
    }

    /**
     * The wait time, or null when {@code value} is empty (or resolves to empty): the template's default.
     *
     * @throws IllegalStateException if it is not a duration or is negative
     */
    @Nullable Duration waitTime(String value, InvalidDeclaration invalid) {
        return duration(value, "waitTime", false, invalid);
    }

    /**
     * The fixed lease, or null when {@code value} is empty (or resolves to empty): the template's default.
     *
     * @throws IllegalStateException if it is not a duration or out of the lease range
     */
    @Nullable Duration leaseTime(String value, InvalidDeclaration invalid) {
        return duration(value, "leaseTime", true, invalid);
    }

    /**
     * The least hold, or null when {@code value} is empty, resolves to empty or is zero: released on return.
     *
     * @throws IllegalStateException if it is not a duration, is negative or is longer than the longest lease
     */
    @Nullable Duration holdAtLeast(String value, InvalidDeclaration invalid) {
        Duration duration = duration(value, "holdAtLeast", false, invalid);
        if (duration != null && duration.compareTo(LockClientOptions.MAX_LEASE_TIME) > 0) {
            throw invalid.because("holdAtLeast", value, "it is longer than "
                    + LockClientOptions.MAX_LEASE_TIME.toDays() + " days; it should be a little below the period of"
                    + " the job");
        }
        return (duration == null || duration.isZero()) ? null : duration;
    }

    private @Nullable Duration duration(String value, String attribute, boolean lease, InvalidDeclaration invalid) {
        if (value.isBlank()) {
            return null;
        }
        String resolved;
        try {
            resolved = this.placeholders.resolveRequiredPlaceholders(value).trim();
        }
        catch (IllegalArgumentException ex) {
            throw invalid.because(attribute, value, ex.getMessage(), ex);
        }
        if (resolved.isEmpty()) {
            return null;
        }
        Duration duration;
        try {
            duration = DurationStyle.detectAndParse(resolved);
        }
        catch (IllegalArgumentException | DateTimeParseException | ArithmeticException ex) {
            throw invalid.because(attribute, value, "it is not a duration" + resolvedFrom(value, resolved)
                    + "; use for example \"2s\", \"500ms\", \"PT2S\" or \"0\"", ex);
        }
        if (duration.isNegative()) {
            throw invalid.because(attribute, value, "it must not be negative" + resolvedFrom(value, resolved));
        }
        if (lease) {
            checkLease(duration, value, resolved, attribute, invalid);
        }
        return duration;
    }

    private static void checkLease(Duration duration, String value, String resolved, String attribute,
            InvalidDeclaration invalid) {
        if (duration.isZero()) {
            throw invalid.because(attribute, value, "a lease must be positive" + resolvedFrom(value, resolved)
                    + "; leave leaseTime empty for a watchdog-renewed lease");
        }
        if (duration.compareTo(LockClientOptions.MIN_LEASE_TIME) < 0) {
            throw invalid.because(attribute, value, "it is shorter than the minimum lease of "
                    + LockClientOptions.MIN_LEASE_TIME.toMillis() + " ms" + resolvedFrom(value, resolved)
                    + "; a lease must outlast clock drift and a round trip to Redis");
        }
        if (duration.compareTo(LockClientOptions.MAX_LEASE_TIME) > 0) {
            throw invalid.because(attribute, value, "it is longer than " + LockClientOptions.MAX_LEASE_TIME.toDays()
                    + " days" + resolvedFrom(value, resolved) + "; leave leaseTime empty for a watchdog-renewed lease");
        }
    }

    private static String resolvedFrom(String value, String resolved) {
        return value.equals(resolved) ? "" : " (it resolved to \"" + resolved + "\")";
    }
}
