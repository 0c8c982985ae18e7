package dev.distlock.core.internal;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import dev.distlock.core.LeaseLoss;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one watchdog of a client. A tick every quarter of the renewal interval (a third of the watchdog lease) renews,
 * in one batch, every watchdog hold whose next renewal falls before the following tick, so each hold is renewed at
 * most one interval after the previous renewal was sent and the renewals of many locks share a network flush. The
 * same tick marks holds LOST whose validity passed (fixed leases included) and releases holds whose thread died.
 *
 * <p>Renewal is owner-checked and never recreates a key. A refused renewal makes the hold LOST at once; a failed one
 * (timeout, connection) is retried at the next tick until the validity deadline passes.
 */
final class LeaseWatchdog implements AutoCloseable {

    private static final Logger logger = LoggerFactory.getLogger(LeaseWatchdog.class);

    private final long renewIntervalNanos;

    private final long tickNanos;

    private final Set<Hold> holds = ConcurrentHashMap.newKeySet();

    private final ScheduledFuture<?> ticker;

    private final Consumer<Hold> abandonedHoldReleaser;

    private final LeaseRegistry registry;

    LeaseWatchdog(Duration watchdogLease, ScheduledExecutorService scheduler, Consumer<Hold> abandonedHoldReleaser,
            LeaseRegistry registry) {
        this.abandonedHoldReleaser = abandonedHoldReleaser;
        this.registry = registry;
        this.renewIntervalNanos = watchdogLease.toNanos() / 3;
        this.tickNanos = Math.max(this.renewIntervalNanos / 4, TimeUnit.MILLISECONDS.toNanos(10));
        this.ticker = scheduler.scheduleWithFixedDelay(this::tickSafely, this.tickNanos, this.tickNanos,
                TimeUnit.NANOSECONDS);
    }

    void watch(Hold hold) {
        this.holds.add(hold);
        this.registry.added(hold);
    }

    void unwatch(Hold hold) {
        this.holds.remove(hold);
        this.registry.unwatched(hold);
    }

    int size() {
        return this.holds.size();
    }

    private void tickSafely() {
        try {
            tick();
        }
        catch (RuntimeException ex) {
            logger.error("Lock watchdog tick failed; retrying at the next tick", ex);
        }
    }

    private void tick() {
        long now = System.nanoTime();
        for (Hold hold : this.holds) {
            if (hold.state() != Hold.State.HELD) {
                this.holds.remove(hold);
            }
            else if (hold.isExpired(now)) {
                this.holds.remove(hold);
                hold.markLost(LeaseLoss.Reason.EXPIRED);
            }
            else if (hold.thread() != null && !hold.thread().isAlive()) {
                releaseAbandoned(hold);
            }
            else if (hold.watchdog() && !hold.renewalInFlight
                    && now - hold.lastRenewalSentNanos() >= this.renewIntervalNanos - this.tickNanos) {
                renew(hold);
            }
        }
    }

    private void renew(Hold hold) {
        long sentAt = System.nanoTime();
        hold.renewalInFlight = true;
        hold.protocol().renew(hold.owner(), hold.leaseMillis()).whenComplete((owned, ex) -> {
            hold.renewalInFlight = false;
            if (ex != null) {
                logger.debug("Renewal of lock '{}' (owner {}) failed; retrying until its validity ends",
                        hold.lockName(), hold.owner(), ex);
                this.registry.renewalFailed(hold, ex);
            }
            else if (owned) {
                hold.renewed(sentAt);
                this.registry.renewed(hold);
            }
            else {
                this.holds.remove(hold);
                hold.markLost(LeaseLoss.Reason.RENEWAL_REFUSED);
            }
        });
    }

    private void releaseAbandoned(Hold hold) {
        this.holds.remove(hold);
        hold.markLost(LeaseLoss.Reason.HOLDER_THREAD_DIED);
        this.abandonedHoldReleaser.accept(hold);
    }

    @Override
    public void close() {
        this.ticker.cancel(false);
        this.holds.clear();
    }
}
