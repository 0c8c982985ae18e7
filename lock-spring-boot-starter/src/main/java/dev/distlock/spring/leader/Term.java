package dev.distlock.spring.leader;

import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockLostException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One term of leadership: its lease, and how it ended, set once by whoever ends it first. */
final class Term implements LeadershipContext {

    private static final Logger logger = LoggerFactory.getLogger(LeaderElection.class);

    /** Why a term ended. */
    enum Ending {
        /** The lease was lost (refused renewal, validity deadline passed, holder thread gone). */
        LOST,
        /** The leader yielded, or its grant callback failed. */
        YIELDED,
        /** The election is stopping. */
        STOPPED
    }

    private final String group;

    private final LockLease lease;

    private final long epoch;

    private final AtomicReference<@Nullable Ending> ending = new AtomicReference<>();

    private final CountDownLatch ended = new CountDownLatch(1);

    private final Instant since = Instant.now();

    Term(String group, LockLease lease, long epoch) {
        this.group = group;
        this.lease = lease;
        this.epoch = epoch;
    }

    @Override
    public String group() {
        return this.group;
    }

    @Override
    public long epoch() {
        return this.epoch;
    }

    @Override
    public boolean isLeader() {
        return this.ending.get() == null && this.lease.isHeld();
    }

    @Override
    public void yield() {
        end(Ending.YIELDED);
    }

    /** Gives the term's lock back; a failure is logged (the lease ends by itself), a loss was reported already. */
    void release() {
        try {
            this.lease.close();
        }
        catch (LockLostException ex) {
            // the loss was reported when it happened
        }
        catch (RuntimeException ex) {
            logger.warn("Releasing the leadership of group '{}' (epoch {}) failed; it ends with its lease: {}",
                    this.group, this.epoch, ex.toString());
        }
    }

    /** When the term began (wall clock, for display). */
    Instant since() {
        return this.since;
    }

    LockLease lease() {
        return this.lease;
    }

    /** Ends the term unless it has ended already; returns whether this call ended it. */
    boolean end(Ending why) {
        if (this.ending.compareAndSet(null, why)) {
            this.ended.countDown();
            return true;
        }
        return false;
    }

    /**
     * Waits until the term has ended, and says why. Not interruptible, as the election's thread is not while it
     * leads (stop ends the term instead); an interrupt that arrives meanwhile is kept for the caller.
     */
    Ending awaitEnd() {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    this.ended.await();
                    return java.util.Objects.requireNonNull(this.ending.get());
                }
                catch (InterruptedException ex) {
                    interrupted = true;
                }
            }
        }
        finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return "leadership of group '" + this.group + "' (epoch " + epoch() + ")";
    }
}
