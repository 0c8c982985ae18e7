package dev.distlock.shedlock;

import java.time.Duration;
import java.util.Optional;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockLostException;
import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One ShedLock lock: a distlock lease with a fixed lease of {@code lockAtMostFor}. Extended, it moves the lease's end
 * and hands the lease to a new lock. Unlocked before {@code lockAtLeastFor}, its key is re-leased to end just after it
 * and the lease is handed to the {@link MinimumHoldTimer}, which releases it on time.
 */
final class DistlockSimpleLock extends AbstractSimpleLock {

    private static final Logger logger = LoggerFactory.getLogger(DistlockSimpleLock.class);

    /** The least a kept key outlives the minimum hold, so the timer's release comes before the lease ends. */
    private static final Duration KEEP_MARGIN = Duration.ofSeconds(1);

    private final LockLease lease;

    private final long acquiredAtNanos;

    private final MinimumHoldTimer timer;

    /** @param acquiredAtNanos when {@code lockAtLeastFor} starts ({@link System#nanoTime()}) */
    DistlockSimpleLock(LockConfiguration configuration, LockLease lease, long acquiredAtNanos,
            MinimumHoldTimer timer) {
        super(configuration);
        this.lease = lease;
        this.acquiredAtNanos = acquiredAtNanos;
        this.timer = timer;
    }

    @Override
    protected Optional<SimpleLock> doExtend(LockConfiguration newConfiguration) {
        long extendedAt = System.nanoTime();
        try {
            this.lease.expireIn(DistlockLockProvider.lease(newConfiguration.getLockAtMostFor()));
        }
        catch (LockLostException ex) {
            logger.debug("ShedLock lock '{}' could not be extended: {}", this.lease.name(), ex.getMessage());
            closeLost(this.lease);
            return Optional.empty();
        }
        return Optional.of(new DistlockSimpleLock(newConfiguration, this.lease, extendedAt, this.timer));
    }

    @Override
    protected void doUnlock() {
        long releaseAt = this.acquiredAtNanos + this.lockConfiguration.getLockAtLeastFor().toNanos();
        long left = releaseAt - System.nanoTime();
        if (left <= 0 || !this.lease.isHeld() || !keepFor(Duration.ofNanos(left))
                || !this.timer.releaseAt(this.lease, releaseAt)) {
            release(this.lease);
        }
    }

    /**
     * Re-leases the key to end a little after {@code left}, so that it frees about when {@code lockAtLeastFor} is
     * over also if this instance stops before the timer releases it; never lengthens the lease.
     *
     * @return false when the lease turned out lost: the caller releases it now
     */
    private boolean keepFor(Duration left) {
        Duration margin = left.dividedBy(50);
        Duration keep = left.plus((margin.compareTo(KEEP_MARGIN) > 0) ? margin : KEEP_MARGIN);
        if (keep.compareTo(this.lease.remainingValidity()) >= 0) {
            return true;
        }
        try {
            this.lease.expireIn(keep);
            return true;
        }
        catch (LockLostException ex) {
            return false;
        }
        catch (RuntimeException ex) {
            logger.debug("ShedLock lock '{}' could not be re-leased for its lockAtLeastFor; if this instance stops, "
                    + "it frees after its lockAtMostFor", this.lease.name(), ex);
            return true;
        }
    }

    /** Releases {@code lease}; a lease that ran out first is logged, not thrown: the task has finished. */
    static void release(LockLease lease) {
        try {
            lease.close();
        }
        catch (LockLostException ex) {
            logger.warn("ShedLock lock '{}' had expired or was lost before it was unlocked: the task may have run"
                    + " longer than its lockAtMostFor, and another instance may have run it meanwhile ({})",
                    lease.name(), ex.getMessage());
        }
    }

    /** Closes a lease found lost; the client has already reported the loss. */
    private static void closeLost(LockLease lease) {
        try {
            lease.close();
        }
        catch (LockLostException ex) {
            // expected: the loss was logged and told to the listeners when it was found
        }
    }
}
