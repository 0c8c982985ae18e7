package dev.distlock.core;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A counting semaphore held in Redis: at most {@linkplain SemaphoreInfo#permits() its permit count} permits of a name
 * are held at a time, by any number of processes that use the same name and key prefix.
 *
 * <p><b>Permits are leases.</b> Each acquired permit is a {@link LockLease} with its own fencing token, renewed by the
 * client's watchdog (or with a fixed lease time, checked but not extended) and returned by closing it. A holder whose
 * process dies or stops renewing loses its permit when its lease ends, and the permit goes to the next waiter. A
 * holder learns of a loss (the permit removed on Redis, or its renewal failing past the lease) from
 * {@link LockLease#isHeld()} and its loss listeners, within a third of its lease, exactly as for a lock. The count
 * holds as long as holders' pauses stay shorter than their lease and Redis keeps its data (see the README's
 * "Guarantees and limits"); writes that must never come from more than N holders should carry the fencing token.
 *
 * <p><b>Order.</b> Waiters queue in Redis and take freed permits in arrival order: nobody takes a permit past a live
 * waiter queued before it. A waiter keeps its place while it asks again at least every three
 * {@link LockClientOptions#maxBackoff() back-offs} plus two operation timeouts; one whose process died or stopped
 * drops out of the queue after that. A single attempt ({@link #tryAcquire()}) never queues and succeeds only while
 * more permits are free than waiters are queued.
 *
 * <p><b>The count.</b> The count is stored in Redis, under the name: the first client that uses the name writes the
 * count it declared in {@link RedisLockClient#getSemaphore(String, int)}, later declarations do not change it, and
 * {@link #setPermits(int)} does, for every client at once. If Redis loses its data the next acquire writes its
 * declared count again. Lowering the count takes no permit away: holders keep theirs, and new permits are granted
 * once fewer than the new count are held.
 *
 * <p><b>Not reentrant.</b> Every acquisition takes one more permit, also on a thread that holds one already. A name
 * used for a semaphore should not be used for a lock: they share the name's fencing counter and wake-up channel.
 *
 * <p>Instances are cheap, thread-safe views; obtain them from {@link RedisLockClient#getSemaphore(String, int)}.
 */
public interface RedisSemaphore {

    /** The semaphore name as given by the caller (without the key prefix). */
    String name();

    /** The permit count this view declared: used when Redis has none stored. */
    int declaredPermits();

    /**
     * Acquires one permit, waiting at most {@code waitTime}, with a watchdog-renewed lease.
     *
     * @throws LockNotAcquiredException if no permit came free for the caller within {@code waitTime}
     * @throws LockOperationException if Redis could not be reached or answered with an error
     * @throws InterruptedException if the thread was interrupted while waiting; a permit granted meanwhile is returned
     */
    LockLease acquire(Duration waitTime) throws InterruptedException;

    /**
     * Acquires one permit, waiting at most {@code waitTime}, with a fixed lease that ends after {@code leaseTime} and
     * is not renewed.
     *
     * @see #acquire(Duration)
     */
    LockLease acquire(Duration waitTime, Duration leaseTime) throws InterruptedException;

    /**
     * One attempt, no waiting, never queued: a permit when more are free than waiters are queued, else empty.
     *
     * @throws LockInterruptedException if the thread was interrupted (its interrupt status is set again)
     */
    default Optional<LockLease> tryAcquire() {
        try {
            return tryAcquire(Duration.ZERO);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new LockInterruptedException(name(), ex);
        }
    }

    /** Like {@link #acquire(Duration)} but returns empty instead of throwing when no permit came free in time. */
    Optional<LockLease> tryAcquire(Duration waitTime) throws InterruptedException;

    /** Permits free now: the count less the live permits held, never below zero (one round trip). */
    default int availablePermits() {
        return inspect().availablePermits();
    }

    /** The permits held now, by whom, oldest lease end first (one round trip). */
    default List<SemaphoreInfo.Holder> holders() {
        return inspect().holders();
    }

    /**
     * Changes the permit count for every client of this name, at once. A higher count wakes the waiters; a lower one
     * takes no permit away (new permits are granted once fewer than {@code permits} are held).
     *
     * @return the count before, or 0 when Redis had none stored
     * @throws IllegalArgumentException if {@code permits} is less than 1
     */
    int setPermits(int permits);

    /**
     * What Redis knows about this semaphore now, in one round trip: the count, the permits held with their owners
     * and remaining leases, the queued waiters. A snapshot for people, not for decisions.
     */
    SemaphoreInfo inspect();
}
