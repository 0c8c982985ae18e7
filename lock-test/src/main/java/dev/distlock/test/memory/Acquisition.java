package dev.distlock.test.memory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.LockOperationException;
import org.jspecify.annotations.Nullable;

/**
 * One acquisition of a lock's claims: reentry where the thread holds a claim, else a grant of all remaining claims at
 * once, waiting in the names' queues up to the wait time. Throws what the Redis client throws in the same situations.
 */
final class Acquisition {

    private final LockStore store;

    private final LockClientOptions options;

    private final String lockName;

    private final List<Claim> claims;

    Acquisition(LockStore store, LockClientOptions options, String lockName, List<Claim> claims) {
        this.store = store;
        this.options = options;
        this.lockName = lockName;
        this.claims = claims;
    }

    /**
     * One lease per claim, in claim order.
     *
     * @param abandoned true once the caller no longer wants the lease (an asynchronous attempt completed by its caller)
     * @throws LockNotAcquiredException if a claim stayed taken for the whole wait
     * @throws LockLostException if the thread holds a claim whose lease was lost and is still open
     * @throws LockOperationException if a simulated slow acquire outlasts the operation timeout
     */
    List<MemoryLease> run(Owner owner, Duration waitTime, @Nullable Duration leaseTime, BooleanSupplier abandoned)
            throws InterruptedException {
        simulateSlowness();
        long waitNanos = saturatedNanos(waitTime);
        long start = System.nanoTime();
        List<Slot> queued = new ArrayList<>();
        boolean granted = false;
        try {
            while (true) {
                List<MemoryLease> leases = attempt(owner, leaseTime, waitNanos - (System.nanoTime() - start), queued,
                        abandoned, waitTime);
                if (leases != null) {
                    granted = true;
                    return leases;
                }
            }
        }
        catch (Interrupted ex) {
            throw ex.cause();
        }
        finally {
            if (!granted && !queued.isEmpty()) {
                this.store.locked(() -> {
                    this.store.dequeue(owner, queued);
                    return null;
                });
            }
        }
    }

    private @Nullable List<MemoryLease> attempt(Owner owner, @Nullable Duration leaseTime, long remainingNanos,
            List<Slot> queued, BooleanSupplier abandoned, Duration waitTime) {
        return this.store.locked(() -> {
            if (abandoned.getAsBoolean()) {
                throw new LockNotAcquiredException(this.lockName, waitTime);
            }
            List<@Nullable Hold> reentered = reentries(owner);
            List<Slot> slots = new ArrayList<>(this.claims.size());
            Hold blocker = null;
            boolean grantable = true;
            for (int i = 0; i < this.claims.size(); i++) {
                Claim claim = this.claims.get(i);
                Slot slot = this.store.slot(claim.side(), claim.name());
                slots.add(slot);
                if (reentered.get(i) == null && !this.store.grantable(slot, claim.side(), owner)) {
                    grantable = false;
                    blocker = (blocker != null) ? blocker : slot.blocker();
                }
            }
            if (grantable) {
                this.store.dequeue(owner, queued);
                queued.clear();
                List<MemoryLease> leases = new ArrayList<>(this.claims.size());
                for (int i = 0; i < this.claims.size(); i++) {
                    Hold hold = reentered.get(i);
                    if (hold == null) {
                        hold = this.store.grant(slots.get(i), this.claims.get(i).side(), owner, leaseTime,
                                this.options.fencing());
                    }
                    leases.add(new MemoryLease(this.store, hold, this.options.watchdogLease()));
                }
                return leases;
            }
            if (remainingNanos <= 0 || abandoned.getAsBoolean()) {
                throw new LockNotAcquiredException(this.lockName, waitTime,
                        (blocker != null) ? blocker.owner.instanceId() : null,
                        (blocker != null) ? blocker.remaining(this.options.watchdogLease()) : null);
            }
            for (int i = 0; i < this.claims.size(); i++) {
                if (reentered.get(i) == null && this.claims.get(i).side() != Side.READ) {
                    this.store.enqueue(slots.get(i), owner);
                    queued.add(slots.get(i));
                }
            }
            awaitChange(remainingNanos);
            return null;
        });
    }

    /** Per claim, the thread's valid hold to reenter, or null to take it anew. */
    private List<@Nullable Hold> reentries(Owner owner) {
        List<@Nullable Hold> reentered = new ArrayList<>(this.claims.size());
        for (Claim claim : this.claims) {
            Hold mine = this.store.threadHold(owner, claim.side(), claim.name());
            if (mine != null && mine.valid()) {
                reentered.add(mine);
                continue;
            }
            if (mine != null) {
                if (!mine.openLeases.isEmpty() && !mine.expired()) {
                    throw new LockLostException(claim.name(), mine.fencingToken, "the current thread still has"
                            + " open leases on it; close them before acquiring the lock again (a lost lock is never"
                            + " resurrected)");
                }
                this.store.forgetThreadHold(mine);
            }
            if (claim.side() == Side.WRITE) {
                Hold read = this.store.threadHold(owner, Side.READ, claim.name());
                if (read != null && read.valid()) {
                    throw new IllegalStateException("Thread " + Thread.currentThread().getName()
                            + " holds a read lock on '" + claim.name() + "' and asks for its write lock: upgrading"
                            + " would deadlock with any other reader doing the same. Release the read lock first, or"
                            + " take the write lock first and downgrade.");
                }
            }
            reentered.add(null);
        }
        return reentered;
    }

    private void awaitChange(long nanos) {
        try {
            this.store.await(nanos);
        }
        catch (InterruptedException ex) {
            throw new Interrupted(ex);
        }
    }

    private void simulateSlowness() throws InterruptedException {
        Duration delay = this.store.slowness(this.claims);
        if (delay.isZero()) {
            return;
        }
        Duration timeout = this.options.operationTimeout();
        if (delay.compareTo(timeout) < 0) {
            Thread.sleep(delay.toMillis(), delay.toNanosPart() % 1_000_000);
            return;
        }
        Thread.sleep(timeout.toMillis());
        throw new LockOperationException(this.lockName, "Acquiring lock '" + this.lockName + "' failed: Redis did"
                + " not answer within " + timeout.toMillis() + " ms (simulated by"
                + " InMemoryLockClient.slowAcquire)", null);
    }

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        }
        catch (ArithmeticException ex) {
            return Long.MAX_VALUE / 2;
        }
    }

    /** Carries an interrupt out of the mutex-holding lambda. */
    static final class Interrupted extends RuntimeException {

        private static final long serialVersionUID = 1L;

        Interrupted(InterruptedException cause) {
            super(cause);
        }

        InterruptedException cause() {
            return (InterruptedException) getCause();
        }
    }
}
