package dev.distlock.core.internal.hold;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import dev.distlock.core.LeaseLoss;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one watchdog of a client. Every hold, fixed or watchdog-renewed, is checked on Redis every third of its own
 * lease: a watchdog hold is renewed (owner-checked extend), a fixed lease is only confirmed (owner-checked, never
 * extended), so a holder learns of a loss (key deleted, flushed, force-unlocked, taken over) within a third of its
 * lease plus a round trip, whichever lease mode it chose.
 *
 * <p>One ticker does it all. A tick sends, in one batch, the renewal or check of every hold whose next one falls
 * within a quarter interval ({@link Hold#checkSlackNanos()}), so the calls of many locks share a network flush; it
 * marks LOST the holds whose validity passed and releases the holds whose thread died. The ticker adapts to the
 * shortest lease watched: it runs every quarter of the shortest check interval, at most every 10 ms and at least
 * every twelfth of the watchdog lease. The cost is one owner-checked script per hold per third of its lease, plus at
 * most 100 ticks a second while a lease shorter than 120 ms is held; leases under 30 ms are checked less often than a
 * third of their lease (they expire first).
 *
 * <p>Renewal is owner-checked and never recreates a key. A refused renewal or check makes the hold LOST at once; a
 * failed one (timeout, connection) is retried at the next tick until the validity deadline passes. A lost hold stays
 * tracked until it can be dropped from its thread's reentrancy table: its thread died, its last lease was closed, or
 * its fixed lease time ran out.
 */
public final class LeaseWatchdog implements AutoCloseable {

    private static final Logger logger = LoggerFactory.getLogger(LeaseWatchdog.class);

    private static final long MIN_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final long maxTickNanos;

    private final Set<Hold> holds = ConcurrentHashMap.newKeySet();

    private final ScheduledExecutorService scheduler;

    private final Consumer<Hold> abandonedHoldReleaser;

    private final Consumer<Hold> finishedHoldForgetter;

    private final LeaseRegistry registry;

    private final ReentrantLock schedule = new ReentrantLock();

    // Guarded by this.schedule: at most one tick is pending at any time.
    private @Nullable ScheduledFuture<?> nextTick;

    private long nextTickAtNanos;

    // Written under this.schedule, read without it: lets watch() skip the lock when the pending tick comes early
    // enough for the new hold (nearly always), so acquiring threads do not queue on it. Null while none is pending.
    private volatile @Nullable Long pendingTickAtNanos;

    private long generation;

    private boolean closed;

    /**
     * @param abandonedHoldReleaser releases a hold whose thread terminated without releasing it
     * @param finishedHoldForgetter drops a lost hold from its thread's reentrancy table once it cannot refuse
     * anything any more
     * @param registry the leases this client holds, told of renewals and their failures
     */
    public LeaseWatchdog(Duration watchdogLease, ScheduledExecutorService scheduler,
            Consumer<Hold> abandonedHoldReleaser, Consumer<Hold> finishedHoldForgetter, LeaseRegistry registry) {
        this.registry = registry;
        this.scheduler = scheduler;
        this.abandonedHoldReleaser = abandonedHoldReleaser;
        this.finishedHoldForgetter = finishedHoldForgetter;
        this.maxTickNanos = Math.max(watchdogLease.toNanos() / 12, MIN_TICK_NANOS);
        scheduleNoLaterThan(System.nanoTime() + this.maxTickNanos);
    }

    public void watch(Hold hold) {
        this.holds.add(hold);
        this.registry.added(hold);
        // A lease shorter than every other one watched needs its first check before the tick already planned. A tick
        // that starts after this read sees the hold added above.
        long needed = System.nanoTime() + tickNanos(hold.checkSlackNanos());
        Long pending = this.pendingTickAtNanos;
        if (pending == null || pending - needed > 0) {
            scheduleNoLaterThan(needed);
        }
    }

    public void unwatch(Hold hold) {
        this.holds.remove(hold);
        this.registry.unwatched(hold);
    }

    /** Holds held and watched (renewed or checked); lost holds still tracked for their thread are not counted. */
    public int size() {
        return (int) this.holds.stream().filter((hold) -> hold.state() == Hold.State.HELD).count();
    }

    private void tickSafely(long scheduledGeneration) {
        this.schedule.lock();
        try {
            if (this.closed || scheduledGeneration != this.generation) {
                // Replaced by an earlier tick while it was about to run: that one does the work.
                return;
            }
            // This tick is running, not pending: a hold watched from now on may plan an earlier one.
            this.nextTick = null;
            this.pendingTickAtNanos = null;
        }
        finally {
            this.schedule.unlock();
        }
        long nextIn = this.maxTickNanos;
        try {
            nextIn = tick();
        }
        catch (RuntimeException ex) {
            logger.error("Lock watchdog tick failed; retrying at the next tick", ex);
        }
        scheduleNoLaterThan(System.nanoTime() + nextIn);
    }

    /** One round over every hold; returns the delay until the next tick. */
    private long tick() {
        long now = System.nanoTime();
        long nextIn = this.maxTickNanos;
        for (Hold hold : this.holds) {
            Hold.State state = hold.state();
            if (state == Hold.State.RELEASED) {
                this.holds.remove(hold);
                continue;
            }
            if (state == Hold.State.LOST) {
                forgetWhenFinished(hold, now);
                continue;
            }
            Thread thread = hold.thread();
            if (hold.isExpired(now)) {
                hold.markLost(LeaseLoss.Reason.EXPIRED);
                forgetWhenFinished(hold, now);
            }
            else if (thread != null && !thread.isAlive()) {
                releaseAbandoned(hold);
            }
            else {
                if (isDue(hold, now)) {
                    check(hold);
                }
                nextIn = Math.min(nextIn, tickNanos(hold.checkSlackNanos()));
            }
        }
        return nextIn;
    }

    private boolean isDue(Hold hold, long now) {
        if (hold.renewalInFlight
                || now - hold.lastCheckSentNanos() < hold.checkIntervalNanos() - hold.checkSlackNanos()) {
            return false;
        }
        // A fixed lease about to run out is reported EXPIRED by the next tick; a check then would learn nothing.
        return hold.watchdog() || hold.remainingValidity().toNanos() > hold.checkSlackNanos();
    }

    /** Renews a watchdog hold, or confirms a fixed one without extending it. */
    private void check(Hold hold) {
        long sentAt = System.nanoTime();
        boolean extend = hold.watchdog();
        hold.renewalInFlight = true;
        hold.protocol().renew(hold.owner(), extend ? hold.leaseMillis() : 0).whenComplete((owned, ex) -> {
            hold.renewalInFlight = false;
            if (ex != null) {
                logger.debug("{} of lock '{}' (owner {}) failed; retrying until its validity ends",
                        extend ? "Renewal" : "Ownership check", hold.lockName(), hold.owner(), ex);
                this.registry.renewalFailed(hold, ex);
            }
            else if (owned) {
                if (extend) {
                    hold.renewed(sentAt);
                    this.registry.renewed(hold);
                }
                else {
                    hold.checked(sentAt);
                }
            }
            else {
                // Refused after our own deadline is the fixed lease running out, not someone taking it.
                hold.markLost(hold.isExpired(System.nanoTime()) ? LeaseLoss.Reason.EXPIRED
                        : LeaseLoss.Reason.RENEWAL_REFUSED);
            }
        });
    }

    /**
     * Drops a lost hold once it cannot refuse its thread anything: the thread died, or the hold is finished (last
     * lease closed, or fixed lease time over). Until then a lost hold makes its thread's reentry fail (no
     * resurrection), so it stays in the thread's table and here.
     */
    private void forgetWhenFinished(Hold hold, long now) {
        Thread thread = hold.thread();
        if (thread == null || !thread.isAlive() || hold.isFinished(now)) {
            this.holds.remove(hold);
            this.finishedHoldForgetter.accept(hold);
        }
    }

    private void releaseAbandoned(Hold hold) {
        this.holds.remove(hold);
        hold.markLost(LeaseLoss.Reason.HOLDER_THREAD_DIED);
        this.abandonedHoldReleaser.accept(hold);
    }

    private long tickNanos(long slackNanos) {
        return Math.min(Math.max(slackNanos, MIN_TICK_NANOS), this.maxTickNanos);
    }

    private void scheduleNoLaterThan(long atNanos) {
        this.schedule.lock();
        try {
            if (this.closed) {
                return;
            }
            ScheduledFuture<?> pending = this.nextTick;
            if (pending != null) {
                if (this.nextTickAtNanos - atNanos <= 0) {
                    return;
                }
                pending.cancel(false);
            }
            long scheduled = ++this.generation;
            try {
                this.nextTick = this.scheduler.schedule(() -> tickSafely(scheduled),
                        Math.max(0, atNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
                this.nextTickAtNanos = atNanos;
                this.pendingTickAtNanos = atNanos;
            }
            catch (RejectedExecutionException ex) {
                // The client is closing.
                this.nextTick = null;
                this.pendingTickAtNanos = null;
            }
        }
        finally {
            this.schedule.unlock();
        }
    }

    @Override
    public void close() {
        this.schedule.lock();
        try {
            this.closed = true;
            if (this.nextTick != null) {
                this.nextTick.cancel(false);
            }
        }
        finally {
            this.schedule.unlock();
        }
        this.holds.clear();
    }
}
