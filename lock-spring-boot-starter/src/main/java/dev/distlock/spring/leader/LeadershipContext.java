package dev.distlock.spring.leader;

/**
 * One term of leadership of one instance: what {@link LeaderCandidate#onGranted} and
 * {@link LeaderCandidate#onRevoked} receive. Thread-safe.
 */
public interface LeadershipContext {

    /** The group led. */
    String group();

    /**
     * The epoch of this term: the fencing token of the lock that grants it, so it is greater than the epoch of every
     * earlier term of the group, on any instance. Hand it to the resources the leader writes to, so a former leader
     * that has not yet noticed its loss (a long pause) cannot overwrite a newer leader's work.
     */
    long epoch();

    /**
     * Whether this term still holds: false as soon as the lease may have expired (on this instance's monotonic clock),
     * was refused on renewal, or the term was yielded or stopped. No round trip.
     */
    boolean isLeader();

    /**
     * Gives up this term: {@link LeaderCandidate#onRevoked} runs, then the lock is released and handed to the next
     * waiting candidate; this instance then competes again, behind the candidates already waiting. Returns at once; a
     * second call, or a call after the term ended, does nothing.
     */
    void yield();
}
