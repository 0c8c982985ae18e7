package dev.distlock.core;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.Lock;

import dev.distlock.core.internal.LockView;

/**
 * A named lock held in Redis, shared by every process that uses the same name and key prefix.
 *
 * <p><b>Exclusion.</b> At most one lease on a name is valid at a time, as long as the holder's pauses stay shorter
 * than its lease and Redis keeps its data (see the README's "Guarantees and limits"). A holder learns that this no
 * longer holds from {@link LockLease#isHeld()} and its loss listeners; correctness-critical writes should carry the
 * {@linkplain LockLease#fencingToken() fencing token}.
 *
 * <p><b>Leases.</b> Without a lease time the lock is kept alive by the client's watchdog (renewed every third of
 * {@link LockClientOptions#watchdogLease()}) for as long as the lease is open. With a lease time the key expires
 * after it and is never renewed, but its ownership is still checked every third of that lease (without extending
 * it), so a loss (key deleted, flushed, force-unlocked, taken over) is reported within a third of the lease, as for a
 * watchdog lease. A fixed lease that runs out need not be closed.
 *
 * <p><b>Reentrancy.</b> The blocking methods are reentrant per thread, like
 * {@link java.util.concurrent.locks.ReentrantLock}: a thread that holds the lock acquires it again at the cost of one
 * round trip that confirms the key is still its own, gets a new lease handle with the same fencing token, and the lock
 * is released when the last handle is closed. A nested acquisition keeps the lease mode of the outermost one. What an
 * earlier hold of the thread means for its next acquisition:
 * <ul>
 * <li>held and valid: reentry as above;</li>
 * <li>lost (deleted, taken over, renewal failing) while one of its leases is still open: the thread is inside a
 * section whose lock is gone, so acquiring fails with {@link LockLostException} (the lock is never resurrected)
 * until those leases are closed; a fixed lease stops blocking once its lease time is over;</li>
 * <li>every lease closed (also by another thread at the same moment), or a fixed lease whose time ran out: a fresh
 * acquisition, with a new fencing token. Closing the old leases later throws {@link LockLostException} for an
 * expired one and never touches the new hold.</li>
 * </ul>
 * The asynchronous methods are not reentrant: each completion is an independent acquisition.
 *
 * <p><b>Waiting.</b> A waiter sleeps until a release is published or a bounded back-off passes, whichever comes first,
 * so a lost wake-up costs at most {@link LockClientOptions#maxBackoff()}. A wait time of zero is exactly one attempt.
 *
 * <p>Instances are cheap, thread-safe views; obtain them from {@link RedisLockClient#getLock(String)}.
 */
public interface RedisLock {

    /** The lock name as given by the caller (without the key prefix). */
    String name();

    /**
     * Acquires the lock, waiting at most {@code waitTime}, with a watchdog-renewed lease.
     *
     * @throws LockNotAcquiredException if the lock was not free within {@code waitTime}
     * @throws LockLostException if the current thread holds this lock but its lease is lost (no resurrection)
     * @throws LockOperationException if Redis could not be reached or answered with an error
     * @throws InterruptedException if the thread was interrupted while waiting; a grant that raced the interrupt is
     * released
     */
    LockLease acquire(Duration waitTime) throws InterruptedException;

    /**
     * Acquires the lock, waiting at most {@code waitTime}, with a fixed lease that expires after {@code leaseTime}
     * and is not renewed.
     *
     * @see #acquire(Duration)
     */
    LockLease acquire(Duration waitTime, Duration leaseTime) throws InterruptedException;

    /**
     * One attempt, no waiting, watchdog lease. Empty if another owner holds the lock.
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

    /**
     * Like {@link #acquire(Duration)} but returns empty instead of throwing when the lock was not free in time.
     */
    Optional<LockLease> tryAcquire(Duration waitTime) throws InterruptedException;

    /**
     * Like {@link #acquire(Duration, Duration)} but returns empty instead of throwing when the lock was not free in
     * time.
     */
    Optional<LockLease> tryAcquire(Duration waitTime, Duration leaseTime) throws InterruptedException;

    /**
     * Acquires without blocking the caller. The stage completes with a lease, or exceptionally with
     * {@link LockNotAcquiredException} or {@link LockOperationException}. Completing the returned future yourself
     * ({@code cancel}, {@code orTimeout}, {@code completeOnTimeout}, {@code complete}, {@code completeExceptionally})
     * abandons the attempt: a grant that raced it is released, never left locked for its lease, and a multi-lock
     * releases the locks it had already taken. Completing a dependent stage ({@code thenApply(...).orTimeout(...)})
     * does not reach the acquisition. Not reentrant. Dependent stages run on the client's completion executor, never
     * on Redis I/O threads.
     */
    CompletionStage<LockLease> acquireAsync(Duration waitTime);

    /** Asynchronous acquisition with a fixed lease; see {@link #acquireAsync(Duration)}. */
    CompletionStage<LockLease> acquireAsync(Duration waitTime, Duration leaseTime);

    /** Whether any owner currently holds this lock in Redis (one round trip). */
    boolean isLocked();

    /** Whether the current thread holds a valid lease on this lock (no round trip). */
    boolean isHeldByCurrentThread();

    /**
     * Deletes the lock whoever holds it and wakes waiters. For operators recovering from a bug, not for normal flow:
     * the previous holder learns of it at its next renewal.
     *
     * @return whether a lock key was deleted
     */
    boolean forceUnlock();

    /**
     * A {@link Lock} view for code written against {@code java.util.concurrent.locks}. {@code lock()} waits without a
     * time limit, leases are watchdog-renewed, {@code unlock()} by a thread that does not hold the lock throws
     * {@link IllegalMonitorStateException}, conditions are not supported.
     */
    Lock asLock();

    /**
     * The {@link #asLock()} view of a {@link RedisLock} implementation, for implementations outside this library (the
     * in-memory client of {@code lock-test} is one): {@code lock()} waits on {@code lock.acquire} without a time limit
     * (an interrupt is kept for later), {@code tryLock} calls {@code lock.tryAcquire}, {@code unlock()} runs
     * {@code unlockCurrentThread}, conditions are not supported.
     *
     * @param lock the thread-reentrant lock whose blocking methods the view calls
     * @param unlockCurrentThread releases the calling thread's innermost acquisition of {@code lock}, or throws
     * {@link IllegalMonitorStateException} if it has none
     * @return the view
     */
    static Lock lockView(RedisLock lock, Runnable unlockCurrentThread) {
        return new LockView(lock, unlockCurrentThread);
    }
}
