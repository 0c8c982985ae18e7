package dev.distlock.core;

import org.jspecify.annotations.Nullable;

/**
 * A {@link LockClientOptions} value was refused. Names the option (its builder method, e.g. {@code watchdogLease}),
 * carries the refused value and says what the option requires, with durations written as people write them
 * ({@code 300ms}, {@code 30s}). Integrations that expose the options under other names (the Spring Boot starter's
 * properties) build their own message from {@link #option()}, {@link #requirement()} and {@link #relatedOption()}.
 */
public class InvalidLockOptionException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String option;

    private final @Nullable Object value;

    private final String requirement;

    private final @Nullable String relatedOption;

    /**
     * @param option the option's name, as its builder method is named
     * @param value the refused value
     * @param requirement what follows the option's name in the message, e.g. {@code must be positive, was 0ms}
     * @param relatedOption another option the requirement names (its value bounds this one), or null
     */
    public InvalidLockOptionException(String option, @Nullable Object value, String requirement,
            @Nullable String relatedOption) {
        super(option + " " + requirement);
        this.option = option;
        this.value = value;
        this.requirement = requirement;
        this.relatedOption = relatedOption;
    }

    /** The refused option, named as its builder method, e.g. {@code watchdogLease}. */
    public String option() {
        return this.option;
    }

    /** The refused value, as given (null when it was missing). */
    public @Nullable Object value() {
        return this.value;
    }

    /** What the option requires, the message without the option's name in front. */
    public String requirement() {
        return this.requirement;
    }

    /** The other option the requirement names, by its builder name, or null. */
    public @Nullable String relatedOption() {
        return this.relatedOption;
    }
}
