package dev.distlock.shedlock;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockLostException;
import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One ShedLock lock: a distlock lease with a fixed lease of {@code lockAtMostFor}. Unlocked before
 * {@code lockAtLeastFor}, it is handed to the {@link MinimumHoldTimer} instead of being released.
 */
final class DistlockSimpleLock extends AbstractSimpleLock {

    private static final Logger logger = LoggerFactory.getLogger(DistlockSimpleLock.class);

    private final LockLease lease;

    private final long acquiredAtNanos;

    private final MinimumHoldTimer timer;

    DistlockSimpleLock(LockConfiguration configuration, LockLease lease, long acquiredAtNanos,
            MinimumHoldTimer timer) {
        super(configuration);
        this.lease = lease;
        this.acquiredAtNanos = acquiredAtNanos;
        this.timer = timer;
    }

    @Override
    protected void doUnlock() {
        long releaseAt = this.acquiredAtNanos + this.lockConfiguration.getLockAtLeastFor().toNanos();
        boolean early = releaseAt - System.nanoTime() > 0 && this.lease.isHeld();
        if (!early || !this.timer.releaseAt(this.lease, releaseAt)) {
            release(this.lease);
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
}
