package dev.distlock.spring.aop;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.LockException;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockLostException;
import dev.distlock.core.RedisLock;
import dev.distlock.spring.annotation.DistributedLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the locks of {@link DistributedLock#holdAtLeast() holdAtLeast} declarations after a run that ended early:
 * before the call's own lease is closed, it takes one more (reentrant) lease on the same hold, and closes that one when
 * the minimum is over, on one daemon thread. The hold stays as it was (a watchdog lease is still renewed, and its loss
 * still reported), and it ends either way: when the minimum is over, when this is closed (application shutdown), or,
 * after a crash, when its lease runs out on Redis.
 *
 * <p>The hold belongs to the thread that ran the method, and would let that thread re-enter; so while a lock name is
 * kept here, {@link #keeping(String)} tells the interceptor to treat it as busy, for this instance too.
 */
final class MinimumHolds implements AutoCloseable {

    private static final Logger logger = LoggerFactory.getLogger(MinimumHolds.class);

    private final Map<String, Kept> kept = new ConcurrentHashMap<>();

    private @Nullable ScheduledExecutorService timer;

    private boolean closed;

    /** How much of a minimum hold of {@code lockName} is left, or null when this instance keeps none. */
    @Nullable Duration keeping(String lockName) {
        Kept held = this.kept.get(lockName);
        if (held == null) {
            return null;
        }
        long left = held.untilNanos() - System.nanoTime();
        return Duration.ofNanos(Math.max(left, 0));
    }

    /**
     * Called when the method has ended, while {@code lease} is still open: if the run was shorter than
     * {@code holdAtLeast} and the lease is still held, keeps the lock until {@code acquiredAtNanos + holdAtLeast}.
     * Never throws: a lock that cannot be kept is released with the call's lease, as without a minimum hold.
     *
     * @param call the call, whose lock is re-entered
     * @param lease the call's lease, closed by the caller after this returns
     * @param acquiredAtNanos when the lease was granted ({@link System#nanoTime()})
     * @param attempt told to watch the kept lease for losses
     */
    void keepAfterRun(LockedCall call, LockLease lease, long acquiredAtNanos, AdviceAttempt attempt) {
        Duration holdAtLeast = call.operation().holdAtLeast();
        if (holdAtLeast == null) {
            return;
        }
        long untilNanos = acquiredAtNanos + holdAtLeast.toNanos();
        if (untilNanos - System.nanoTime() <= 0 || !lease.isHeld()) {
            return;
        }
        LockLease extra = reenter(call.lock(), call.leaseTime());
        if (extra == null) {
            return;
        }
        attempt.watchKept(extra);
        Kept held = new Kept(call.lock().name(), extra, untilNanos);
        this.kept.put(held.lockName(), held);
        if (!schedule(held)) {
            release(held);
        }
    }

    private static @Nullable LockLease reenter(RedisLock lock, @Nullable Duration leaseTime) {
        // The job may have left its thread interrupted; the re-entry must not fail for that.
        boolean interrupted = Thread.interrupted();
        try {
            Optional<LockLease> extra = (leaseTime != null) ? lock.tryAcquire(Duration.ZERO, leaseTime)
                    : lock.tryAcquire(Duration.ZERO);
            if (extra.isEmpty()) {
                logger.debug("Lock '{}' could not be re-entered for its minimum hold; releasing it now", lock.name());
            }
            return extra.orElse(null);
        }
        catch (InterruptedException | LockException ex) {
            logger.debug("Lock '{}' could not be kept for its minimum hold; releasing it now", lock.name(), ex);
            return null;
        }
        finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private synchronized boolean schedule(Kept held) {
        if (this.closed) {
            return false;
        }
        if (this.timer == null) {
            this.timer = Executors.newSingleThreadScheduledExecutor((task) -> {
                Thread thread = new Thread(task, "distlock-hold-at-least");
                thread.setDaemon(true);
                return thread;
            });
        }
        try {
            this.timer.schedule(() -> release(held), held.untilNanos() - System.nanoTime(), TimeUnit.NANOSECONDS);
            return true;
        }
        catch (RejectedExecutionException ex) {
            return false;
        }
    }

    private void release(Kept held) {
        release(held, false);
    }

    private void release(Kept held, boolean shuttingDown) {
        this.kept.remove(held.lockName(), held);
        try {
            held.lease().close();
        }
        catch (LockLostException ex) {
            // already reported (WARN by the client, and to the listeners) when it was lost
            logger.debug("Lock '{}' was lost during its minimum hold", held.lockName(), ex);
        }
        catch (RuntimeException ex) {
            if (shuttingDown) {
                // the lock client may be closed first: it stopped renewing, and the key expires after its lease
                logger.debug("Lock '{}' was not released at shutdown; it expires after its lease", held.lockName(),
                        ex);
            }
            else {
                logger.warn("Releasing lock '{}' after its minimum hold failed", held.lockName(), ex);
            }
        }
    }

    /**
     * Releases the locks still kept: the application is shutting down, and a hold left to the watchdog would be
     * renewed for as long as the lock client lives. When the lock client was closed first, it has stopped renewing
     * and the keys expire after their lease.
     */
    @Override
    public void close() {
        ScheduledExecutorService stopped;
        synchronized (this) {
            this.closed = true;
            stopped = this.timer;
        }
        if (stopped != null) {
            stopped.shutdownNow();
        }
        if (!this.kept.isEmpty()) {
            logger.info("Releasing {} lock(s) before their minimum hold is over: the application is shutting down",
                    this.kept.size());
        }
        this.kept.values().forEach((held) -> release(held, true));
    }

    /** A lock kept until {@code untilNanos}. */
    private record Kept(String lockName, LockLease lease, long untilNanos) {
    }
}
