package dev.distlock.test.memory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.distlock.core.LeaseLoss;
import dev.distlock.core.LeaseLossListener;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockLostException;
import org.jspecify.annotations.Nullable;

/**
 * One acquisition of one {@link Hold}. Closing the last open lease of a valid hold frees it; closing a lease of a
 * lost (or run-out) hold throws {@link LockLostException}, as the Redis client's leases do.
 */
final class MemoryLease implements LockLease {

    private final LockStore store;

    private final Hold hold;

    private final Duration watchdogLease;

    private final List<LeaseLossListener> listeners = new ArrayList<>();

    private volatile boolean closed;

    private @Nullable Runnable whenClosed;

    /** Called holding the store's mutex. */
    MemoryLease(LockStore store, Hold hold, Duration watchdogLease) {
        this.store = store;
        this.hold = hold;
        this.watchdogLease = watchdogLease;
        hold.openLeases.add(this);
    }

    @Override
    public String name() {
        return this.hold.slot.name;
    }

    @Override
    public long fencingToken() {
        return this.hold.fencingToken;
    }

    @Override
    public boolean isHeld() {
        return !this.closed && this.hold.valid();
    }

    @Override
    public Duration remainingValidity() {
        return this.closed ? Duration.ZERO : this.hold.remaining(this.watchdogLease);
    }

    @Override
    public void addLossListener(LeaseLossListener listener) {
        LeaseLoss loss = this.store.locked(() -> {
            if (this.closed) {
                return null;
            }
            if (this.hold.valid()) {
                this.listeners.add(listener);
                return null;
            }
            LeaseLoss.Reason reason = this.hold.lost;
            return new LeaseLoss(name(), fencingToken(), (reason != null) ? reason : LeaseLoss.Reason.EXPIRED);
        });
        if (loss != null) {
            listener.leaseLost(loss);
        }
    }

    @Override
    public void expireIn(Duration remaining) {
        if (remaining == null || remaining.isZero() || remaining.isNegative()) {
            throw new IllegalArgumentException("remaining must be positive, was " + remaining + "; to release lock '"
                    + name() + "' now, close the lease");
        }
        if (this.hold.leaseTime == null) {
            throw new IllegalStateException("The lease on lock '" + name() + "' is renewed by the watchdog for as "
                    + "long as it is held, so it has no end to move; close it to release the lock, or acquire the "
                    + "lock with a lease time to choose when it ends");
        }
        if (this.closed) {
            throw new IllegalStateException("The lease on lock '" + name() + "' was closed; acquire the lock again");
        }
        LeaseLoss.Reason lost = this.store.locked(() -> {
            if (!this.hold.valid()) {
                if (this.hold.lost == null) {
                    this.store.lose(this.hold, LeaseLoss.Reason.EXPIRED);
                }
                return this.hold.lost;
            }
            this.store.moveEnd(this.hold, remaining);
            return null;
        });
        if (lost != null) {
            throw new LockLostException(name(), fencingToken(), "lease lost (" + lost + ")");
        }
    }

    /** Whether the watchdog renews this lease (it has no end to move). */
    boolean renewedByWatchdog() {
        return this.hold.leaseTime == null;
    }

    /** The listeners not told yet, handed over once (called holding the mutex). */
    List<LeaseLossListener> takeListeners() {
        List<LeaseLossListener> taken = List.copyOf(this.listeners);
        this.listeners.clear();
        return taken;
    }

    /** Runs once this lease is closed (the {@code Lock} view forgets it). */
    void whenClosed(Runnable action) {
        this.whenClosed = action;
    }

    @Override
    public void close() {
        LeaseLoss.Reason lost = this.store.locked(() -> {
            if (this.closed) {
                return null;
            }
            this.closed = true;
            if (this.hold.lost == null && this.hold.expired()) {
                // It ran out before anything reported it: that is its loss, told to its listeners before they go.
                this.store.lose(this.hold, LeaseLoss.Reason.EXPIRED);
            }
            this.listeners.clear();
            this.hold.openLeases.remove(this);
            if (this.hold.openLeases.isEmpty()) {
                this.store.forgetThreadHold(this.hold);
                if (this.hold.lost == null) {
                    this.store.release(this.hold);
                }
            }
            return this.hold.lost;
        });
        Runnable action = this.whenClosed;
        if (action != null) {
            action.run();
        }
        if (lost != null) {
            throw new LockLostException(name(), fencingToken(), "lease lost (" + lost + ")");
        }
    }

    @Override
    public String toString() {
        return "MemoryLease[" + name() + ", token " + fencingToken() + (isHeld() ? ", held]" : ", not held]");
    }
}
