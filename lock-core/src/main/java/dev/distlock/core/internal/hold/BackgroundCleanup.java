package dev.distlock.core.internal.hold;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import dev.distlock.core.internal.protocol.HandoffProtocol;
import dev.distlock.core.internal.protocol.LockProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Clean-up that must not hold up the caller: releasing unwanted grants, abandoning acquisitions whose outcome is
 * unknown (tombstone and owner-checked removal) and releases that failed in transit, retried every half back-off
 * step until a late grant could no longer matter, then left to the lease to expire.
 */
public final class BackgroundCleanup {

    private static final Logger logger = LoggerFactory.getLogger(BackgroundCleanup.class);

    private static final Duration TOMBSTONE_MIN = Duration.ofMinutes(1);

    private final ScheduledExecutorService scheduler;

    private final long retryNanos;

    private final BooleanSupplier closed;

    public BackgroundCleanup(ScheduledExecutorService scheduler, Duration maxBackoff, BooleanSupplier closed) {
        this.scheduler = scheduler;
        this.retryNanos = maxBackoff.toNanos() / 2;
        this.closed = closed;
    }

    /** Owner-checked release of a grant that did arrive but is not wanted; failures only logged. */
    public void releaseQuietly(LockProtocol protocol, String owner) {
        quietly(protocol.lockName(), owner, protocol.release(owner));
    }

    /**
     * Takes a waiter's entry out of the queue, and releases the lock if it was handed over in the meantime. If Redis
     * does not answer, the entry could still be handed the lock later, so the clean-up becomes an abandon.
     */
    public void leaveQueue(HandoffProtocol protocol, String owner, String entry, long leaseMillis) {
        protocol.leave(owner, entry).whenComplete((ignored, ex) -> {
            if (ex != null) {
                abandon(protocol, owner, leaseMillis);
            }
        });
    }

    /**
     * Abandons an acquisition whose outcome is unknown (no reply: timeout, connection lost): runs the protocol's
     * clean-up, which leaves a tombstone for the owner and removes a possible grant, and retries it every back-off
     * step while it fails (Redis unreachable, failing over) and a late grant could still matter. A request that
     * Redis executes late - one Lettuce replays after a reconnect - then finds the tombstone and is refused, instead
     * of blocking the lock for a whole lease. Tombstones expire by themselves.
     */
    public void abandon(LockProtocol protocol, String owner, long leaseMillis) {
        // The tombstone outlives the lease by a margin so that a command Lettuce replays after a long reconnect
        // still finds it; the clean-up is retried for as long as a late grant could matter.
        long tombstoneMillis = Math.max(2 * leaseMillis, TOMBSTONE_MIN.toMillis());
        retryUntil(protocol.lockName(), owner, () -> protocol.abandon(owner, tombstoneMillis),
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(leaseMillis));
    }

    /**
     * Retries the owner-checked release of a hold whose release failed in transit (Redis failing over, connection
     * reset), so the lock is free as soon as Redis answers again instead of only when its lease ends.
     */
    void releaseInBackground(LockProtocol protocol, String owner, long leaseMillis) {
        retryUntil(protocol.lockName(), owner, () -> protocol.release(owner),
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(leaseMillis));
    }

    private void retryUntil(String lockName, String owner, Supplier<CompletableFuture<?>> cleanup, long untilNanos) {
        if (this.closed.getAsBoolean()) {
            return;
        }
        cleanup.get().whenComplete((ignored, ex) -> {
            if (ex == null) {
                return;
            }
            if (System.nanoTime() - untilNanos < 0 && !this.closed.getAsBoolean()) {
                logger.debug("Clean-up of lock '{}' (owner {}) failed; retrying", lockName, owner, ex);
                try {
                    this.scheduler.schedule(() -> retryUntil(lockName, owner, cleanup, untilNanos),
                            this.retryNanos, TimeUnit.NANOSECONDS);
                }
                catch (RejectedExecutionException closing) {
                    // The client is closing; the key expires with its lease.
                }
            }
            else {
                logger.debug("Gave up cleaning up lock '{}' (owner {}); it expires with its lease", lockName,
                        owner, ex);
            }
        });
    }

    /** Runs a clean-up step whose failure only matters as a log line: the keys involved expire with their lease. */
    public void quietly(String lockName, String owner, CompletableFuture<?> cleanup) {
        cleanup.whenComplete((ignored, ex) -> {
            if (ex != null) {
                logger.debug("Clean-up of lock '{}' (owner {}) failed; its keys expire with their lease", lockName,
                        owner, ex);
            }
        });
    }

}
