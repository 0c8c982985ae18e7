package dev.distlock.core.internal.hold;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import dev.distlock.core.LeaseLoss;
import dev.distlock.core.LockLostException;
import dev.distlock.core.internal.LockEngine;
import dev.distlock.core.internal.protocol.Grant;
import dev.distlock.core.internal.protocol.LockProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Releasing a hold, one lease at a time: the last open lease stops renewal and runs the protocol's owner-checked
 * release (which hands the lock to the next waiter). A lease already lost fails with {@link LockLostException}; a
 * release Redis did not answer is retried in the background, because the work ran under a valid lease.
 */
public final class HoldRelease {

    private static final Logger logger = LoggerFactory.getLogger(HoldRelease.class);

    private final LockEngine engine;

    private final LockProtocol protocol;

    public HoldRelease(LockEngine engine, LockProtocol protocol) {
        this.engine = engine;
        this.protocol = protocol;
    }

    /** Drops one open lease of {@code hold}, blocking until Redis answered. */
    public void releaseOne(Hold hold) {
        try {
            releaseOneAsync(hold).join();
        }
        catch (CompletionException ex) {
            if (ex.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw ex;
        }
    }

    /**
     * Drops one open lease of {@code hold} without blocking; the last one stops renewal and then deletes the key if
     * still ours. The future fails with {@link LockLostException} when the lease had been lost.
     */
    public CompletableFuture<Void> releaseOneAsync(Hold hold) {
        boolean last;
        try {
            last = hold.releaseOne();
        }
        catch (RuntimeException ex) {
            return CompletableFuture.failedFuture(ex);
        }
        if (!last) {
            if (hold.state() == Hold.State.LOST) {
                return CompletableFuture.failedFuture(lost(hold, "released a nested acquisition after the loss"));
            }
            return CompletableFuture.completedFuture(null);
        }
        this.engine.watchdog().unwatch(hold);
        this.engine.threadHolds().forget(hold);
        if (!hold.isValid() || !hold.markReleased()) {
            hold.markLost(LeaseLoss.Reason.EXPIRED);
            // Our clock says the lease may be over, but the key may still be ours: free it for the next owner.
            this.engine.cleanup().releaseQuietly(this.protocol, hold.owner());
            return CompletableFuture.failedFuture(lost(hold, "it was no longer valid when released"));
        }
        long disconnectsBefore = this.engine.connectionStatus().disconnects();
        CompletableFuture<Boolean> release = (hold.fencingTokenIfMinted() == Grant.UNMINTED)
                ? this.protocol.releaseUnminted(hold.owner()) : this.protocol.release(hold.owner());
        return release.handle((deleted, ex) -> {
            if (ex != null) {
                // The work ran under a valid lease; only the release is in doubt. Keep trying in the background so
                // the lock frees as soon as Redis answers (e.g. after a failover) rather than when its lease ends.
                Throwable cause = (ex instanceof CompletionException) ? ex.getCause() : ex;
                logger.warn("Releasing lock '{}' (owner {}) failed: {}; retrying in the background until its lease "
                        + "ends", this.protocol.lockName(), hold.owner(), String.valueOf(cause));
                this.engine.cleanup().releaseInBackground(this.protocol, hold.owner(), hold.leaseMillis());
                return null;
            }
            if (!deleted) {
                if (this.engine.connectionStatus().disconnects() != disconnectsBefore) {
                    // The connection dropped while the release was on its way and Lettuce sent it again: this reply
                    // may be the second run's, after the first had released. The lease was valid when the release
                    // was sent, so the work ran under it; no other owner's key was touched either way.
                    logger.info("Release of lock '{}' (owner {}) found the key gone after a reconnect: taken as "
                            + "released by its first run", this.protocol.lockName(), hold.owner());
                    return null;
                }
                throw lost(hold, "at release the key was missing or owned by another owner; nothing was deleted");
            }
            return null;
        });
    }

    /** The exception for a lease that was lost, naming why when known. */
    public static LockLostException lost(Hold hold, String detail) {
        LeaseLoss loss = hold.loss();
        String reason = (loss != null) ? " (" + loss.reason() + ")" : "";
        return new LockLostException(hold.lockName(), hold.knownFencingToken(), "lease lost" + reason + ": " + detail);
    }
}
