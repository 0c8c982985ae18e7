package dev.distlock.shedlock;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.LockLease;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Releases the leases of locks unlocked before their {@code lockAtLeastFor} when it is over, on one daemon thread. The
 * lease stays open until then, so the lock stays held and its end is not reported as a loss; the key, re-leased by
 * {@link DistlockSimpleLock} to end shortly after, bounds it if this instance stops first.
 */
final class MinimumHoldTimer implements AutoCloseable {

    private static final Logger logger = LoggerFactory.getLogger(MinimumHoldTimer.class);

    private final Set<LockLease> pending = ConcurrentHashMap.newKeySet();

    private @Nullable ScheduledExecutorService executor;

    private boolean closed;

    /**
     * Releases {@code lease} at {@code releaseAtNanos} ({@link System#nanoTime()}).
     *
     * @return false when this timer is closed: the caller releases it now
     */
    synchronized boolean releaseAt(LockLease lease, long releaseAtNanos) {
        if (this.closed) {
            return false;
        }
        if (this.executor == null) {
            this.executor = Executors.newSingleThreadScheduledExecutor((task) -> {
                Thread thread = new Thread(task, "distlock-shedlock-hold");
                thread.setDaemon(true);
                return thread;
            });
        }
        this.pending.add(lease);
        try {
            this.executor.schedule(() -> release(lease), releaseAtNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
            return true;
        }
        catch (RejectedExecutionException ex) {
            this.pending.remove(lease);
            return false;
        }
    }

    private void release(LockLease lease) {
        if (this.pending.remove(lease)) {
            try {
                DistlockSimpleLock.release(lease);
            }
            catch (RuntimeException ex) {
                logger.warn("Releasing ShedLock lock '{}' after its lockAtLeastFor failed; its key expires"
                        + " by itself shortly after", lease.name(), ex);
            }
        }
    }

    @Override
    public void close() {
        ScheduledExecutorService stopped;
        synchronized (this) {
            this.closed = true;
            stopped = this.executor;
        }
        if (stopped != null) {
            stopped.shutdownNow();
        }
        this.pending.forEach(this::release);
    }
}
