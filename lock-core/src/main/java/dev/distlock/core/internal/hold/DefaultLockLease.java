package dev.distlock.core.internal.hold;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.distlock.core.LeaseLoss;
import dev.distlock.core.LeaseLossListener;
import dev.distlock.core.LockLease;
import dev.distlock.core.internal.protocol.Grant;
import dev.distlock.core.internal.time.Durations;

/** A lease handle over a {@link Hold}; closing it drops one of the hold's open leases, once. */
public final class DefaultLockLease implements LockLease {

    private final Hold hold;

    private final HoldReleaser releaser;

    private final TokenMinter minter;

    private final HoldEndMover endMover;

    private final AtomicBoolean closed = new AtomicBoolean();

    private final List<LeaseLossListener> listeners = new CopyOnWriteArrayList<>();

    public DefaultLockLease(Hold hold, HoldReleaser releaser, TokenMinter minter, HoldEndMover endMover) {
        this.hold = hold;
        this.releaser = releaser;
        this.minter = minter;
        this.endMover = endMover;
    }

    @Override
    public String name() {
        return this.hold.lockName();
    }

    @Override
    public long fencingToken() {
        long token = this.hold.fencingTokenIfMinted();
        return Grant.isMinted(token) ? token : this.minter.mint(this.hold);
    }

    @Override
    public boolean isHeld() {
        return !this.closed.get() && this.hold.isValid();
    }

    @Override
    public Duration remainingValidity() {
        return this.closed.get() ? Duration.ZERO : this.hold.remainingValidity();
    }

    @Override
    public void expireIn(Duration remaining) {
        if (remaining != null && (remaining.isZero() || remaining.isNegative())) {
            throw new IllegalArgumentException("remaining must be positive, was " + remaining + "; to release lock '"
                    + name() + "' now, close the lease");
        }
        long millis = Durations.leaseMillis("remaining", remaining);
        if (this.hold.watchdog()) {
            throw new IllegalStateException("The lease on lock '" + name() + "' is renewed by the watchdog for as "
                    + "long as it is held, so it has no end to move; close it to release the lock, or acquire the "
                    + "lock with a lease time to choose when it ends");
        }
        if (this.closed.get()) {
            throw new IllegalStateException("The lease on lock '" + name() + "' was closed; acquire the lock again");
        }
        this.endMover.expireIn(this.hold, millis);
    }

    /** Whether the watchdog renews this lease (it has no end to move). */
    boolean renewedByWatchdog() {
        return this.hold.watchdog();
    }

    @Override
    public void addLossListener(LeaseLossListener listener) {
        this.listeners.add(listener);
        this.hold.addLossListener(listener);
    }

    @Override
    public void close() {
        try {
            closeAsync().toCompletableFuture().join();
        }
        catch (CompletionException ex) {
            if (ex.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw ex;
        }
    }

    @Override
    public CompletionStage<Void> closeAsync() {
        if (!this.closed.compareAndSet(false, true)) {
            return CompletableFuture.completedFuture(null);
        }
        if (this.hold.state() == Hold.State.HELD && this.hold.isExpired(System.nanoTime())) {
            // It ran out before anything reported it: that is its loss, told to its listeners before they go.
            this.hold.markLost(LeaseLoss.Reason.EXPIRED);
        }
        // A nested lease's listeners must not outlive it on the hold the outer lease keeps.
        this.listeners.forEach(this.hold::removeLossListener);
        return this.releaser.releaseOne(this.hold);
    }

    @Override
    public String toString() {
        return "LockLease[name=" + name() + ", fencingToken=" + this.hold.knownFencingToken() + ", held=" + isHeld()
                + "]";
    }

    /** Mints a hold's fencing token on the holder's first request, blocking for one round trip. */
    @FunctionalInterface
    public interface TokenMinter {

        /** For kinds whose every grant carries its token: asking can never need a mint. */
        TokenMinter MINTED_WITH_GRANT = (hold) -> {
            throw new IllegalStateException("The token of '" + hold.lockName() + "' is minted with its grant");
        };

        long mint(Hold hold);
    }

    /**
     * Moves the end of a fixed hold to {@code millis} from now, owner-checked and blocking for one round trip; throws
     * {@link dev.distlock.core.LockLostException} when the hold is no longer the key's.
     */
    @FunctionalInterface
    public interface HoldEndMover {

        void expireIn(Hold hold, long millis);
    }

    /** Releases one open lease of a hold without blocking; the last one releases the key. */
    @FunctionalInterface
    public interface HoldReleaser {

        CompletableFuture<Void> releaseOne(Hold hold);
    }
}
