package dev.distlock.core;

import java.time.Duration;
import java.util.Map;

/**
 * One successful acquisition of a {@link RedisLock}, or one permit of a {@link RedisSemaphore}; closing it releases
 * that acquisition.
 *
 * <p>The lease may be closed from any thread, exactly once: a second {@link #close()} is a no-op. When the last open
 * lease of a hold is closed, renewal stops first and then the lock key is deleted by an owner-checked script, so a key
 * that expired and was taken by someone else is never touched.
 *
 * <p>{@link #isHeld()} is truthful on the client's monotonic clock: it turns false as soon as the lease may have
 * expired (measured from when the acquire or last renewal was <i>sent</i>, minus a drift margin), or when a renewal or
 * ownership check was refused. Every lease is renewed (watchdog) or checked (fixed lease, not extended) every third
 * of its lease, so a loss on Redis (deleted, flushed, force-unlocked, taken over) shows within a third of the lease
 * plus a round trip. That moment is the lease's loss; registered listeners are told once.
 */
public interface LockLease extends AutoCloseable {

    /** The lock name. */
    String name();

    /**
     * A number that strictly increases with every new acquisition of this lock name, and stays the same for reentrant
     * acquisitions and renewals of one hold. Pass it with writes to a resource that rejects tokens older than the
     * newest it has seen; that keeps a paused, expired holder from overwriting a newer holder's work.
     *
     * <p>A blocking acquisition (whether it found the lock free or was handed it by a release) leaves the token to
     * this call: the first call mints it, in one round trip that also checks this lease still holds the lock, and
     * later calls (and nested leases) return the same number. Tokens minted late are ordered like the holds
     * themselves, because only the current holder can mint. If that check finds the lock lost, this throws
     * {@link LockLostException} (and the lease reports the loss); if Redis cannot be reached it throws like any lock
     * call, so ask for the token inside the block that closes the lease. A lease that ended (closed, expired or lost)
     * before its token was asked for has none: this returns 0, which is below every token the lock issues, so a
     * fenced resource that has seen any token refuses it. Asynchronous and reactive acquisitions carry their token from
     * the start: this never blocks for them. 0 when fencing is off.
     */
    long fencingToken();

    /**
     * The fencing token of every lock this lease holds, by lock name: one entry for a single lock, one per name for
     * a multi-lock (in acquisition order).
     */
    default Map<String, Long> fencingTokens() {
        return Map.of(name(), fencingToken());
    }

    /** Whether this lease is still valid and not released. No round trip. */
    boolean isHeld();

    /** How long this lease remains valid at most; zero once it is not held. */
    Duration remainingValidity();

    /**
     * Moves the end of this fixed lease to {@code remaining} from now, later or earlier, and keeps the lock: the key
     * is re-leased by an owner-checked script that never recreates a key that is gone, and
     * {@link #remainingValidity()} then counts from when the request was sent, as after a renewal. The hold keeps its
     * fencing token; its nested leases see the new end too. It is still checked at the pace of its original lease.
     *
     * <p>Only a lease acquired with a lease time has an end to move. A watchdog lease is renewed as long as it is
     * held: {@link #close()} it to release the lock, or acquire with a lease time to choose when it ends.
     *
     * <p>Until Redis answers, the lease counts as ending at the earlier of the old and the new end, since the key may
     * end at either; if Redis does not answer ({@link LockOperationException}), that stays so. Calls on one hold run
     * one at a time.
     *
     * @param remaining how long from now the lease lasts, from {@link LockClientOptions#MIN_LEASE_TIME} to
     * {@link LockClientOptions#MAX_LEASE_TIME}
     * @throws IllegalArgumentException if {@code remaining} is null, not positive or out of those bounds
     * @throws IllegalStateException if this is a watchdog lease or it was closed
     * @throws LockLostException if the lease had been lost or run out, or the key no longer holds it (the lease then
     * reports the loss)
     * @throws UnsupportedOperationException if this kind of lease cannot move its end (the default)
     */
    default void expireIn(Duration remaining) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " leases of lock '" + name()
                + "' cannot move their end; close the lease and acquire the lock again with the lease time you need");
    }

    /**
     * Registers a listener told once when the lease is lost before it was released. If the lease is already lost,
     * the listener runs immediately on the calling thread. Listeners run on a client thread and must not block.
     * Closing this lease unregisters its listeners, also when it is a nested acquisition of a hold that stays.
     */
    void addLossListener(LeaseLossListener listener);

    /**
     * Releases this acquisition.
     *
     * <p>A release that fails in transit (Redis unreachable or failing over) does not throw: the work ran under a
     * valid lease, so it is logged at WARN and retried in the background until Redis answers or the lease ends.
     *
     * @throws LockLostException if the lease had been lost: the caller's critical section was not fully protected
     */
    @Override
    void close();

    /**
     * Releases this acquisition like {@link #close()}, without blocking the calling thread (for reactive and
     * asynchronous code). The stage completes once Redis answered, or fails with {@link LockLostException} if the
     * lease had been lost. The default runs {@link #close()} on the common pool; the library's leases release
     * without occupying a thread.
     */
    default java.util.concurrent.CompletionStage<Void> closeAsync() {
        return java.util.concurrent.CompletableFuture.runAsync(this::close);
    }
}
