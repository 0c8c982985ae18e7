package dev.distlock.core.internal.hold;

import java.util.concurrent.locks.ReentrantLock;

import dev.distlock.core.LockLease;
import dev.distlock.core.LostLeasePolicy;
import org.jspecify.annotations.Nullable;

/**
 * {@link LostLeasePolicy#INTERRUPT}: interrupts the calling thread if the lease is lost while, and only while, the
 * guarded code runs; an interrupt it caused is cleared when it stops, so it does not leak into the caller's later
 * code. Used by {@code LockTemplate} and by the Spring advice for calls it runs itself.
 */
public final class LeaseLossInterrupter {

    private final ReentrantLock guard = new ReentrantLock();

    private @Nullable Thread running = Thread.currentThread();

    private boolean interrupted;

    private LeaseLossInterrupter(LockLease lease) {
        lease.addLossListener((loss) -> interrupt());
    }

    /** An interrupter for the current thread when {@code policy} asks for one, else null. */
    public static @Nullable LeaseLossInterrupter forPolicy(LostLeasePolicy policy, LockLease lease) {
        return (policy == LostLeasePolicy.INTERRUPT) ? new LeaseLossInterrupter(lease) : null;
    }

    private void interrupt() {
        this.guard.lock();
        try {
            if (this.running != null) {
                this.interrupted = true;
                this.running.interrupt();
            }
        }
        finally {
            this.guard.unlock();
        }
    }

    /** Stops watching; clears an interrupt this interrupter caused, so it does not leak into the caller's code. */
    public static void stop(@Nullable LeaseLossInterrupter interrupter) {
        if (interrupter == null) {
            return;
        }
        interrupter.guard.lock();
        try {
            interrupter.running = null;
            if (interrupter.interrupted) {
                Thread.interrupted();
            }
        }
        finally {
            interrupter.guard.unlock();
        }
    }
}
