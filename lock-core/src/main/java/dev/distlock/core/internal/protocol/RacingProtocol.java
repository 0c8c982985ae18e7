package dev.distlock.core.internal.protocol;

import java.util.concurrent.CompletableFuture;

/**
 * The racing family (read locks, RedLock, semaphores): a refused waiter sleeps in its client's wait room for the
 * name until a release's wake-up on the unlock channel, the holder's lease end or a back-off, and then attempts again.
 * {@code AcquireOperation} waits this way.
 */
public interface RacingProtocol extends LockProtocol {

    /** The unlock channel; also names the local wait room. */
    String channel();

    /** Whether releases are published on {@link #channel()}; if not, waiters rely on their back-off alone. */
    default boolean publishesReleases() {
        return true;
    }

    /** Whether local waiters queue for one racer ({@code false} when every waiter must keep its own place). */
    boolean singleRacer();

    /**
     * One acquire attempt for {@code owner} with the {@link #prepare} context. {@code willWait} lets a protocol that
     * keeps waiters' places (RedLock, semaphores) keep the caller's when refused.
     */
    CompletableFuture<AttemptResult> attempt(String owner, long leaseMillis, String context, boolean willWait);

    /** Leaves the place a waiting attempt may have kept, after giving up without a grant; never throws. */
    default void leaveQueue(String owner) {
    }
}
