package dev.distlock.core.internal.protocol;

import org.jspecify.annotations.Nullable;

/**
 * The answer to one acquire attempt.
 *
 * @param grant the grant, or null when another owner holds the lock
 * @param holderPttlMillis the holder's remaining time to live when not granted ({@code -1} when unknown)
 */
public record AttemptResult(@Nullable Grant grant, long holderPttlMillis) {
}
