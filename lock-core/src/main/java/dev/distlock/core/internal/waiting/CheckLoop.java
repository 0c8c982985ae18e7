package dev.distlock.core.internal.waiting;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

/**
 * The one check loop of a queued waiter: at any moment one timer is armed or one step (a subscription or an attempt)
 * is on its way, never more. A timer armed later supersedes an earlier one, which then does nothing when it fires;
 * a step that starts supersedes the armed timer. The timer serves both the waiter's checks and its deadline.
 */
final class CheckLoop {

    private final ScheduledExecutorService scheduler;

    /** Runs when the current timer fires; the loop then counts a step as on its way. */
    private final Runnable onTimer;

    /** Whether the waiter is decided: a timer armed then is cancelled at once. */
    private final BooleanSupplier decided;

    /** Guards {@link #ticket} and {@link #stepPending}, and what callers decide in {@link #armDeciding}. */
    private final ReentrantLock lock = new ReentrantLock();

    /** Number of the armed timer: a timer that fires with an older one was superseded and does nothing. */
    private long ticket;

    /** A subscription or attempt is on its way: its completion takes the next step, and the room's calls wait. */
    private boolean stepPending;

    private volatile @Nullable ScheduledFuture<?> timer;

    CheckLoop(ScheduledExecutorService scheduler, Runnable onTimer, BooleanSupplier decided) {
        this.scheduler = scheduler;
        this.onTimer = onTimer;
        this.decided = decided;
    }

    /** An attempt is the loop's next step: it supersedes a timer armed meanwhile; its reply arms the next one. */
    void stepStarted() {
        this.lock.lock();
        try {
            this.stepPending = true;
            this.ticket++;
            cancel();
        }
        finally {
            this.lock.unlock();
        }
    }

    /**
     * Arms the loop's one timer in place of any other. {@code subscribing}: a subscription is on its way meanwhile
     * (the timer is the deadline). Returns why the timer cannot run when the client is closing, for the caller to
     * fail the operation once it no longer holds the loop.
     */
    @Nullable RejectedExecutionException arm(long nanos, boolean subscribing) {
        this.lock.lock();
        try {
            long armed = ++this.ticket;
            this.stepPending = subscribing;
            cancel();
            try {
                this.timer = this.scheduler.schedule(() -> fired(armed), nanos, TimeUnit.NANOSECONDS);
            }
            catch (RejectedExecutionException closing) {
                return closing;
            }
        }
        finally {
            this.lock.unlock();
        }
        if (this.decided.getAsBoolean()) {
            cancel();
        }
        return null;
    }

    /**
     * Arms the timer for the time {@code sleep} decides with the loop held: a {@link #armUnlessStepPending} meanwhile
     * waits for the timer armed here, then re-arms it.
     */
    @Nullable RejectedExecutionException armDeciding(LongSupplier sleep) {
        this.lock.lock();
        try {
            return arm(sleep.getAsLong(), false);
        }
        finally {
            this.lock.unlock();
        }
    }

    /** Re-arms the timer, unless a step is on its way: its completion decides and arms the one timer. */
    @Nullable RejectedExecutionException armUnlessStepPending(LongSupplier sleep) {
        this.lock.lock();
        try {
            return this.stepPending ? null : arm(sleep.getAsLong(), false);
        }
        finally {
            this.lock.unlock();
        }
    }

    /** Stops the loop: the armed timer is cancelled. */
    void cancel() {
        ScheduledFuture<?> scheduled = this.timer;
        if (scheduled != null) {
            scheduled.cancel(false);
        }
    }

    private void fired(long armed) {
        this.lock.lock();
        try {
            if (armed != this.ticket) {
                // Superseded while firing: a later timer or an attempt took the loop over.
                return;
            }
            this.ticket++;
            this.stepPending = true;
        }
        finally {
            this.lock.unlock();
        }
        this.onTimer.run();
    }
}
