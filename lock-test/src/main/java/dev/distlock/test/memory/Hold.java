package dev.distlock.test.memory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.distlock.core.LeaseLoss;
import org.jspecify.annotations.Nullable;

/**
 * One owner's hold on one side of a {@link Slot}: its fencing token, its lease (watchdog-renewed, which in memory
 * never lapses, or fixed), its open leases and, once lost, why. Mutable state is guarded by the store's mutex; what
 * {@link MemoryLease#isHeld()} reads without it is volatile or final.
 */
final class Hold {

    final Slot slot;

    final Side side;

    final Owner owner;

    final long fencingToken;

    /** The fixed lease, or null for a watchdog-renewed one. */
    final @Nullable Duration leaseTime;

    private volatile long deadlineNanos;

    final List<MemoryLease> openLeases = new ArrayList<>();

    volatile LeaseLoss.@Nullable Reason lost;

    Hold(Slot slot, Side side, Owner owner, long fencingToken, @Nullable Duration leaseTime) {
        this.slot = slot;
        this.side = side;
        this.owner = owner;
        this.fencingToken = fencingToken;
        this.leaseTime = leaseTime;
        this.deadlineNanos = System.nanoTime() + ((leaseTime != null) ? leaseTime.toNanos() : 0);
    }

    /** Whether a fixed lease has run out (on the monotonic clock). */
    boolean expired() {
        return this.leaseTime != null && System.nanoTime() - this.deadlineNanos >= 0;
    }

    boolean valid() {
        return this.lost == null && !expired();
    }

    /** How long it stays valid: what is left of a fixed lease, or a full watchdog lease. */
    Duration remaining(Duration watchdogLease) {
        if (!valid()) {
            return Duration.ZERO;
        }
        return (this.leaseTime != null) ? Duration.ofNanos(Math.max(0, this.deadlineNanos - System.nanoTime()))
                : watchdogLease;
    }

    /** Moves a fixed lease's end to {@code remaining} from now (called holding the store's mutex). */
    void moveEnd(Duration remaining) {
        this.deadlineNanos = System.nanoTime() + remaining.toNanos();
    }

    long nanosUntilExpiry() {
        return this.deadlineNanos - System.nanoTime();
    }
}
