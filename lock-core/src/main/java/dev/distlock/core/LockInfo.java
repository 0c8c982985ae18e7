package dev.distlock.core;

import java.time.Duration;

import dev.distlock.core.internal.InstanceIds;
import org.jspecify.annotations.Nullable;

/**
 * What Redis says about one lock name at one moment, read in one round trip by {@link RedisLockClient#inspect}, plus
 * how many leases the calling thread holds on it. A snapshot for people and dashboards: by the time it is read, the
 * lock may have changed hands, so never decide whether to write on it (use a lease and its fencing token).
 *
 * @param name the lock name
 * @param mode how it is held, {@link Mode#FREE} if not
 * @param owner the holder's owner token ({@code <instanceId>:<clientId>:<counter>}); for read holds, the reader
 * whose lease lasts longest; null when free
 * @param ownerInstanceId the instance id inside {@code owner}: which application instance holds the lock; null when
 * free or when the token was not minted by this library
 * @param remainingLease how long the holder's lease lasts on Redis unless renewed; zero when free
 * @param fencingToken the current holder's own fencing token (for read holds, that reader's); 0 when free or
 * fencing is off
 * @param queuedWaiters owners queued in Redis for this lock (the fair lock's and the handoff queues, waiting writers)
 * @param readHolds live read holds of the read/write lock of this name
 * @param currentThreadHoldCount open leases the calling thread holds on this name through this client, all lock
 * kinds together (reentrant acquisitions count one each); 0 if none
 */
public record LockInfo(String name, Mode mode, @Nullable String owner, @Nullable String ownerInstanceId,
        Duration remainingLease, long fencingToken, long queuedWaiters, long readHolds, int currentThreadHoldCount) {

    /** Whether any owner holds the lock. */
    public boolean held() {
        return this.mode != Mode.FREE;
    }

    /**
     * The instance id inside an owner token minted by this library ({@code <instanceId>:<clientId>:<counter>}), or
     * null if the token has another shape.
     */
    public static @Nullable String instanceIdOf(@Nullable String ownerToken) {
        return InstanceIds.ofOwnerToken(ownerToken);
    }

    /** How a lock name is held. */
    public enum Mode {

        /** Nobody holds it. */
        FREE,

        /** Held by one owner through a reentrant, fair or multi-lock. */
        EXCLUSIVE,

        /** Held by the writer of the read/write lock. */
        WRITE,

        /** Held by one or more readers of the read/write lock. */
        READ
    }
}
