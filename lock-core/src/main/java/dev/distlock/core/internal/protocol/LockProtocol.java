package dev.distlock.core.internal.protocol;

import java.util.concurrent.CompletableFuture;

/**
 * How one kind of lock talks to Redis once it holds or gave up a lock: renew, release, abandon, inspect. Every kind
 * belongs to one of two families, which differ in how a waiter gets the lock: a {@link HandoffProtocol} (reentrant,
 * fair, write, multi-lock members) queues in Redis and is handed the lock by a release, a {@link RacingProtocol}
 * (read, RedLock, semaphore) is woken and attempts again. {@code Hold}, {@code HoldRelease} and the
 * {@code LeaseWatchdog} use this base only. Every step is one round trip per node and is owner-checked.
 */
public interface LockProtocol {

    /** The user's lock name. */
    String lockName();

    /** The lock kind as operators see it: {@code reentrant}, {@code read}, {@code write}, {@code redlock}
     * or {@code semaphore}. */
    String kind();

    /** Identifies this lock in the per-thread hold table (read and write holds of one name differ). */
    String holdKey();

    /**
     * Checks, on the acquiring thread, that it may acquire (e.g. no read-to-write upgrade) and returns a context for
     * the attempts computed from the thread's other holds (e.g. its write owner, which lets a read be granted under
     * it). Returns the empty string when there is none.
     */
    default String prepare(ThreadHoldsView holds, Thread thread) {
        return "";
    }

    /**
     * Mints the fencing token of {@code owner}'s hold, granted without one ({@link Grant#UNMINTED}); completes with
     * the token, or -1 when {@code owner} does not hold the lock. Only queued locks grant holds without a token.
     */
    default CompletableFuture<Long> mintToken(String owner) {
        return CompletableFuture.failedFuture(new IllegalStateException(kind() + " locks mint tokens with the grant"));
    }

    /** Extends ({@code leaseMillis > 0}) or only confirms ({@code 0}) the hold of {@code owner}; true while owned. */
    CompletableFuture<Boolean> renew(String owner, long leaseMillis);

    /** Releases the hold of {@code owner}; true when it was ours and is now gone. Wakes the next waiters. */
    CompletableFuture<Boolean> release(String owner);

    /**
     * {@link #release} for a hold granted without a fencing token ({@link Grant#UNMINTED}) whose holder never asked for
     * one: a kind may release it more cheaply while nobody waits for it. Same result and same guarantees.
     */
    default CompletableFuture<Boolean> releaseUnminted(String owner) {
        return release(owner);
    }

    /**
     * Cleans up after an acquisition whose grant came too late or whose outcome is unknown: releases a possible grant
     * and leaves any queue, owner-checked. {@code BackgroundCleanup.abandon} retries it until the lease could have ended.
     */
    CompletableFuture<?> abandon(String owner, long tombstoneMillis);

    /** Whether any owner holds the lock now. */
    CompletableFuture<Boolean> isLocked();

    /** Deletes the lock whoever holds it and wakes waiters; true when something was deleted. */
    CompletableFuture<Boolean> forceRelease();
}
