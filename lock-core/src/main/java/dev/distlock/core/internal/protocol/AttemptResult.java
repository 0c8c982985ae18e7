package dev.distlock.core.internal.protocol;

import org.jspecify.annotations.Nullable;

/**
 * The answer to one acquire attempt.
 *
 * @param grant the grant, or null when another owner holds the lock
 * @param holderPttlMillis the holder's remaining time to live when not granted ({@code -1} when unknown); for a split
 * vote, the random delay before the next attempt
 * @param splitVote the attempt lost a split vote (RedLock: contenders took the nodes between them, none a majority):
 * the waiter tries again after {@code holderPttlMillis}, not earlier on a wake-up. Every contender gives up at the same
 * moment and its clean-up wakes the others, so retrying on those wake-ups would keep them in step.
 */
public record AttemptResult(@Nullable Grant grant, long holderPttlMillis, boolean splitVote) {

    public AttemptResult(@Nullable Grant grant, long holderPttlMillis) {
        this(grant, holderPttlMillis, false);
    }

    /** Refused by a split vote: try again after {@code delayMillis}, whatever wakes the waiter meanwhile. */
    public static AttemptResult splitVote(long delayMillis) {
        return new AttemptResult(null, delayMillis, true);
    }
}
