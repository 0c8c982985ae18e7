package dev.distlock.core.internal.hold;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.distlock.core.LeaseLossListener;
import dev.distlock.core.LockLease;
import dev.distlock.core.internal.protocol.Grant;

/** A lease handle over a {@link Hold}; closing it drops one of the hold's open leases, once. */
public final class DefaultLockLease implements LockLease {

    private final Hold hold;

    private final HoldReleaser releaser;

    private final TokenMinter minter;

    private final AtomicBoolean closed = new AtomicBoolean();

    private final List<LeaseLossListener> listeners = new CopyOnWriteArrayList<>();

    public DefaultLockLease(Hold hold, HoldReleaser releaser, TokenMinter minter) {
        this.hold = hold;
        this.releaser = releaser;
        this.minter = minter;
    }

    @Override
    public String name() {
        return this.hold.lockName();
    }

    @Override
    public long fencingToken() {
        long token = this.hold.fencingTokenIfMinted();
        return (token != Grant.UNMINTED) ? token : this.minter.mint(this.hold);
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
        // A nested lease's listeners must not outlive it on the hold the outer lease keeps.
        this.listeners.forEach(this.hold::removeLossListener);
        return this.releaser.releaseOne(this.hold);
    }

    @Override
    public String toString() {
        return "LockLease[name=" + name() + ", fencingToken=" + this.hold.knownFencingToken() + ", held=" + isHeld() + "]";
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

    /** Releases one open lease of a hold without blocking; the last one releases the key. */
    @FunctionalInterface
    public interface HoldReleaser {

        CompletableFuture<Void> releaseOne(Hold hold);
    }
}
