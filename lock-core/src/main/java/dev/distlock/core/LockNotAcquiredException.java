package dev.distlock.core;

import java.time.Duration;

import dev.distlock.core.internal.time.DurationFormat;
import org.jspecify.annotations.Nullable;

/**
 * The lock was held by another owner for the whole wait time. Nothing was written to Redis on the caller's behalf.
 * When the last refusal said who held the lock, {@link #holderInstanceId()} and {@link #holderRemainingLease()} tell
 * which instance and for how long (useful in logs: "held by orders@host-2:4242, 12s left").
 */
public class LockNotAcquiredException extends LockException {

    private static final long serialVersionUID = 1L;

    private final Duration waitTime;

    private final @Nullable String holderInstanceId;

    private final @Nullable Duration holderRemainingLease;

    public LockNotAcquiredException(String lockName, Duration waitTime) {
        this(lockName, waitTime, null, null);
    }

    /**
     * @param lockName the lock
     * @param waitTime how long the caller waited
     * @param holderInstanceId the instance id of the holder at the last refusal, if known
     * @param holderRemainingLease the holder's remaining lease at the last refusal, if known
     */
    public LockNotAcquiredException(String lockName, Duration waitTime, @Nullable String holderInstanceId,
            @Nullable Duration holderRemainingLease) {
        super(lockName, "Lock '" + lockName + "' was not acquired within " + DurationFormat.format(waitTime)
                + ": another owner" + holder(holderInstanceId, holderRemainingLease) + " held it for the whole wait."
                + " Increase the wait time or handle the contention.", null);
        this.waitTime = waitTime;
        this.holderInstanceId = holderInstanceId;
        this.holderRemainingLease = holderRemainingLease;
    }

    /**
     * No permit of the semaphore {@code semaphoreName} came free for the caller within {@code waitTime}: every
     * permit stayed held, or waiters queued earlier took the ones that came free.
     */
    public static LockNotAcquiredException noPermit(String semaphoreName, Duration waitTime) {
        return new LockNotAcquiredException(semaphoreName, waitTime, "No permit of semaphore '" + semaphoreName
                + "' was acquired within " + DurationFormat.format(waitTime) + ": every permit stayed held or went to "
                + "waiters queued earlier. Increase the wait time or the permits, or handle the contention.");
    }

    private LockNotAcquiredException(String lockName, Duration waitTime, String message) {
        super(lockName, message, null);
        this.waitTime = waitTime;
        this.holderInstanceId = null;
        this.holderRemainingLease = null;
    }

    private static String holder(@Nullable String instanceId, @Nullable Duration remaining) {
        if (instanceId == null && remaining == null) {
            return "";
        }
        String who = (instanceId != null) ? "instance " + instanceId : "";
        String lease = (remaining != null) ? DurationFormat.format(remaining) + " of its lease left" : "";
        return " (" + who + ((!who.isEmpty() && !lease.isEmpty()) ? ", " : "") + lease + ")";
    }

    /** How long the caller waited. */
    public Duration waitTime() {
        return this.waitTime;
    }

    /** Which instance held the lock at the last refusal, when known. */
    public @Nullable String holderInstanceId() {
        return this.holderInstanceId;
    }

    /** How much of its lease the holder had left at the last refusal, when known. */
    public @Nullable Duration holderRemainingLease() {
        return this.holderRemainingLease;
    }
}
