package dev.distlock.core.internal.hold;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import dev.distlock.core.HeldLease;
import dev.distlock.core.LeaseLoss;
import dev.distlock.core.LockEventListener;
import dev.distlock.core.internal.protocol.LockProtocol;
import dev.distlock.core.internal.time.DurationFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The holds a client has now, with when each was acquired and how often it was renewed, and the listeners told about
 * them. Fed by the {@link LeaseWatchdog} (which sees every hold from grant to release or loss); logs each event at
 * DEBUG naming the lock and the owner.
 */
public final class LeaseRegistry {

    private static final Logger logger = LoggerFactory.getLogger(LeaseRegistry.class);

    private final Map<Hold, Entry> holds = new ConcurrentHashMap<>();

    private final List<LockEventListener> listeners = new CopyOnWriteArrayList<>();

    public void addListener(LockEventListener listener) {
        this.listeners.add(listener);
    }

    public void removeListener(LockEventListener listener) {
        this.listeners.remove(listener);
    }

    /** The holds currently held, oldest first. */
    public List<HeldLease> snapshot() {
        long now = System.nanoTime();
        List<HeldLease> leases = new ArrayList<>();
        this.holds.forEach((hold, entry) -> {
            if (hold.state() == Hold.State.HELD) {
                leases.add(entry.toLease(hold, now));
            }
        });
        leases.sort((a, b) -> b.heldFor().compareTo(a.heldFor()));
        return leases;
    }

    void added(Hold hold) {
        Entry entry = new Entry(System.nanoTime());
        this.holds.put(hold, entry);
        hold.addLossListener((loss) -> lost(hold, entry, loss));
        if (logger.isDebugEnabled()) {
            logger.debug("Acquired lock '{}' (owner {}, fencing token {}, lease {}{})", hold.lockName(), hold.owner(),
                    hold.knownFencingToken(), DurationFormat.format(Duration.ofMillis(hold.leaseMillis())),
                    hold.watchdog() ? ", renewed by the watchdog" : "");
        }
        tell((listener) -> listener.acquired(entry.toLease(hold, System.nanoTime())));
    }

    /** The hold leaves the watchdog: released unless it is no longer valid (then its loss is reported instead). */
    void unwatched(Hold hold) {
        Entry entry = this.holds.remove(hold);
        if (entry == null || !hold.isValid()) {
            return;
        }
        long now = System.nanoTime();
        if (logger.isDebugEnabled()) {
            logger.debug("Releasing lock '{}' (owner {}, fencing token {}) after {}", hold.lockName(), hold.owner(),
                    hold.knownFencingToken(), DurationFormat.format(Duration.ofNanos(now - entry.acquiredAtNanos)));
        }
        tell((listener) -> listener.released(entry.toLease(hold, now)));
    }

    void renewed(Hold hold) {
        Entry entry = this.holds.get(hold);
        if (entry != null) {
            entry.renewals.incrementAndGet();
        }
        logger.debug("Renewed lock '{}' (owner {}) for {}", hold.lockName(), hold.owner(),
                DurationFormat.format(Duration.ofMillis(hold.leaseMillis())));
    }

    void renewalFailed(Hold hold, Throwable failure) {
        Entry entry = this.holds.get(hold);
        if (entry != null) {
            tell((listener) -> listener.renewalFailed(entry.toLease(hold, System.nanoTime()), failure));
        }
    }

    private void lost(Hold hold, Entry entry, LeaseLoss loss) {
        this.holds.remove(hold);
        tell((listener) -> listener.lost(entry.toLease(hold, System.nanoTime()), loss));
    }

    private void tell(Consumer<LockEventListener> event) {
        for (LockEventListener listener : this.listeners) {
            try {
                event.accept(listener);
            }
            catch (RuntimeException ex) {
                logger.warn("Lock event listener {} failed", listener, ex);
            }
        }
    }

    static String kind(LockProtocol protocol) {
        return protocol.kind();
    }

    private static final class Entry {

        final long acquiredAtNanos;

        final AtomicLong renewals = new AtomicLong();

        Entry(long acquiredAtNanos) {
            this.acquiredAtNanos = acquiredAtNanos;
        }

        HeldLease toLease(Hold hold, long now) {
            Thread thread = hold.thread();
            return new HeldLease(hold.lockName(), kind(hold.protocol()), hold.owner(), hold.knownFencingToken(),
                    Duration.ofNanos(Math.max(0, now - this.acquiredAtNanos)), hold.remainingValidity(),
                    Duration.ofMillis(hold.leaseMillis()), hold.watchdog(), this.renewals.get(),
                    Duration.ofNanos(Math.max(0, now - hold.lastCheckSentNanos())),
                    (thread != null) ? thread.getName() : null);
        }
    }
}
