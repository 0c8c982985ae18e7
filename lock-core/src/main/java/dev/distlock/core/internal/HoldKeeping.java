package dev.distlock.core.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.LeaseLoss;
import dev.distlock.core.LockLease;
import dev.distlock.core.internal.hold.Hold;
import dev.distlock.core.internal.hold.HoldRelease;
import dev.distlock.core.internal.protocol.Grant;
import dev.distlock.core.internal.protocol.LockProtocol;

/**
 * What a {@link ProtocolLock} does with its holds besides handing them out: follows a handed-over grant's
 * confirmation, mints a fencing token on the holder's request, drops finished holds from the thread table, and gives
 * up an acquisition whose caller stopped waiting.
 */
final class HoldKeeping {

    private final LockEngine engine;

    private final LockProtocol protocol;

    private final BlockingReplies replies;

    HoldKeeping(LockEngine engine, LockProtocol protocol, BlockingReplies replies) {
        this.engine = engine;
        this.protocol = protocol;
        this.replies = replies;
    }

    /**
     * A handed-over grant the holder runs on before it confirmed its offer: the confirmation is sent when due unless
     * it is no longer needed ({@link Hold#confirmOffer}); answered, it extends the validity, or, refused (the key is
     * no longer this owner's), makes the hold lost. One that failed leaves the validity at the offer's; the watchdog
     * reports the loss if nothing renews it in time. The wait is timed on the client's wheel timer (lock-free, no
     * thread woken per grant); the confirmation itself goes out from the completion executor, never from the wheel's
     * thread.
     */
    void followConfirmation(Hold hold, Grant grant) {
        Grant.Confirmation confirmation = grant.confirmation();
        if (confirmation == null) {
            return;
        }
        long delay = confirmation.dueNanos() - System.nanoTime();
        if (delay <= 0) {
            confirm(hold, confirmation);
            return;
        }
        try {
            this.engine.timer().newTimeout((due) -> {
                // Most holds handed over are released long before: nothing to send, so no executor thread to wake.
                if (hold.state() == Hold.State.HELD) {
                    confirmLater(hold, confirmation);
                }
            }, delay, TimeUnit.NANOSECONDS);
        }
        catch (IllegalStateException | RejectedExecutionException stopped) {
            confirm(hold, confirmation);
        }
    }

    private void confirmLater(Hold hold, Grant.Confirmation confirmation) {
        try {
            this.engine.completionExecutor().execute(() -> confirm(hold, confirmation));
        }
        catch (RejectedExecutionException ex) {
            confirm(hold, confirmation);
        }
    }

    private void confirm(Hold hold, Grant.Confirmation confirmation) {
        CompletableFuture<Long> answer = hold.confirmOffer(confirmation.send());
        if (answer == null) {
            // Ended before it was due (a released offer needs no confirmation), or its key's expiry was set since.
            return;
        }
        answer.whenComplete((sentAt, ex) -> {
            if (ex != null) {
                return;
            }
            if (sentAt >= 0) {
                hold.renewed(sentAt);
            }
            else {
                this.engine.watchdog().unwatch(hold);
                hold.markLost(LeaseLoss.Reason.RENEWAL_REFUSED);
            }
        });
    }

    /**
     * Mints the token of a hold granted without one, on its holder's first request: owner-checked, so a lease that
     * is no longer the key's gets no token (and learns it lost the lock) instead of one that would outrank its
     * successor's. See {@link LockLease#fencingToken()}.
     */
    long mintToken(Hold hold) {
        if (!this.engine.options().fencing()) {
            return 0;
        }
        if (!hold.isValid()) {
            // Ended before anyone asked: no token, and 0 outranks none that was issued.
            return 0;
        }
        long token = this.replies.awaitUninterruptibly(this.protocol.mintToken(hold.owner()));
        if (token < 0) {
            this.engine.watchdog().unwatch(hold);
            hold.markLost(LeaseLoss.Reason.RENEWAL_REFUSED);
            throw HoldRelease.lost(hold, "the key no longer holds this lease, so no fencing token was minted for it");
        }
        hold.recordFencingToken(token);
        return token;
    }

    /** Gives up an acquisition; a grant that already arrived is released (one still in flight is, on arrival). */
    void abandon(CompletableFuture<Grant> result) {
        if (!result.cancel(false) && !result.isCompletedExceptionally()) {
            this.engine.cleanup().releaseQuietly(this.protocol, result.join().owner());
        }
    }

    /**
     * Drops a finished hold from the thread's table (a fixed lease that ran out is reported lost once, as the
     * watchdog would); its open leases can still be closed and never touch a newer hold.
     */
    void forget(Hold hold) {
        if (hold.state() == Hold.State.HELD && hold.isExpired(System.nanoTime())) {
            this.engine.watchdog().unwatch(hold);
            hold.markLost(LeaseLoss.Reason.EXPIRED);
        }
        this.engine.threadHolds().forget(hold);
    }
}
