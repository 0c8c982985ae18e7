package dev.distlock.core.internal;

import dev.distlock.core.LeaseLoss;
import dev.distlock.core.LockLease;
import dev.distlock.core.internal.hold.DefaultLockLease;
import dev.distlock.core.internal.hold.Hold;
import dev.distlock.core.internal.hold.HoldRelease;

/**
 * Moves the end of a fixed hold ({@link LockLease#expireIn}): the protocol's owner-checked renewal re-leases the key
 * for the new time, which never recreates a key that is gone, and the hold's validity follows from when it was sent.
 * A refusal is the hold's loss, reported as the watchdog would.
 */
final class HoldEndMoves implements DefaultLockLease.HoldEndMover {

    private final BlockingReplies replies;

    HoldEndMoves(BlockingReplies replies) {
        this.replies = replies;
    }

    @Override
    public void expireIn(Hold hold, long millis) {
        if (!hold.isValid()) {
            if (hold.state() == Hold.State.HELD && hold.isExpired(System.nanoTime())) {
                hold.markLost(LeaseLoss.Reason.EXPIRED);
            }
            throw HoldRelease.lost(hold, "it had ended before its end could be moved");
        }
        boolean owned = hold.moveEnd(millis,
                () -> this.replies.awaitUninterruptibly(hold.protocol().renew(hold.owner(), millis)));
        if (!owned) {
            hold.markLost(hold.isExpired(System.nanoTime()) ? LeaseLoss.Reason.EXPIRED
                    : LeaseLoss.Reason.RENEWAL_REFUSED);
            throw HoldRelease.lost(hold, "the key was deleted or taken over; moving its end never recreates it");
        }
    }
}
