package dev.distlock.spring.boot.actuate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;

import dev.distlock.core.HeldLease;
import dev.distlock.core.LeaseLoss;
import dev.distlock.core.LockEventListener;
import org.jspecify.annotations.Nullable;

/** Remembers the leases this instance lost within a window (the last 100 at most), for the health contributor. */
final class RecentLeaseLosses implements LockEventListener {

    private static final int MAX_REMEMBERED = 100;

    private final Duration window;

    private final Clock clock;

    private final Deque<Loss> losses = new ArrayDeque<>();

    RecentLeaseLosses(Duration window, Clock clock) {
        this.window = window;
        this.clock = clock;
    }

    @Override
    public void lost(HeldLease lease, LeaseLoss loss) {
        synchronized (this.losses) {
            this.losses.addLast(new Loss(lease.name(), loss.reason(), this.clock.instant()));
            if (this.losses.size() > MAX_REMEMBERED) {
                this.losses.removeFirst();
            }
        }
    }

    Duration window() {
        return this.window;
    }

    /** Losses within the window. */
    int count() {
        synchronized (this.losses) {
            prune();
            return this.losses.size();
        }
    }

    @Nullable Loss last() {
        synchronized (this.losses) {
            prune();
            return this.losses.peekLast();
        }
    }

    private void prune() {
        Instant oldest = this.clock.instant().minus(this.window);
        while (!this.losses.isEmpty() && this.losses.peekFirst().at().isBefore(oldest)) {
            this.losses.removeFirst();
        }
    }

    record Loss(String name, LeaseLoss.Reason reason, Instant at) {
    }
}
