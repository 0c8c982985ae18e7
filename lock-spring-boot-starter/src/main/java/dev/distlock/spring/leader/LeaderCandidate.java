package dev.distlock.spring.leader;

/**
 * Wants to lead a group: told when it is granted leadership and when leadership ends. Declare it as a bean and the
 * starter runs a {@link LeaderElection} for it; outside Spring, hand it to
 * {@link LeaderElection#LeaderElection(dev.distlock.core.RedisLockClient, String, LeaderCandidate)}.
 *
 * <p>Both callbacks run on the election's own thread, one after the other, never at the same time. Return promptly
 * from {@link #onGranted}: start the leader's work on threads of your own. The revocation of a term is delivered
 * after its grant has returned.
 */
public interface LeaderCandidate {

    /**
     * The group this candidate competes in: one instance of a group leads at a time. Null (the default) means the
     * {@code distributed-lock.leader.group} property.
     */
    default @org.jspecify.annotations.Nullable String group() {
        return null;
    }

    /**
     * This instance leads now. Pass {@link LeadershipContext#epoch()} with writes made as leader, to a store that
     * rejects epochs older than the newest it has seen, and check {@link LeadershipContext#isLeader()} between steps.
     * An exception gives up this term (it is logged, {@link #onRevoked} follows).
     */
    void onGranted(LeadershipContext context);

    /**
     * This instance no longer leads, because its lease was lost (told before another instance can be granted
     * leadership), because it yielded, or because the election is stopping (before the lock is released, so the
     * successor starts after this returns). Stop the leader's work here.
     */
    default void onRevoked(LeadershipContext context) {
    }
}
