package dev.distlock.core.internal.waiting;

import java.util.concurrent.TimeUnit;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.internal.protocol.Grant;
import dev.distlock.core.internal.protocol.HandoffProtocol;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A queued waiter's answer to a handoff: the wake channel said the lock was offered to its owner, so it confirms the
 * offer (a renewal to the full lease, acknowledged by replicas when configured) and holds the lock from the
 * confirmation's send time, or at once with an {@linkplain #early early grant} whose confirmation is left to the hold.
 * An offer that lapsed before the confirmation (the process was paused) went on to the next waiter, which the caller
 * learns to queue again.
 */
final class OfferConfirmation {

    private static final Logger logger = LoggerFactory.getLogger(OfferConfirmation.class);

    /**
     * The shortest offer whose confirmation waits until half of it has passed: the wait is timed on the client's
     * wheel timer, which may fire a tick (100 ms by default) late, so a quarter of the offer must cover that and a
     * round trip.
     */
    static final long DEFERRABLE_OFFER_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final LockClientOptions options;

    private final HandoffProtocol protocol;

    private final AcquisitionRequest request;

    private final QueuedOutcome outcome;

    OfferConfirmation(LockClientOptions options, HandoffProtocol protocol, AcquisitionRequest request,
            QueuedOutcome outcome) {
        this.options = options;
        this.protocol = protocol;
        this.request = request;
        this.outcome = outcome;
    }

    /** Decides the outcome with a grant on the offer, confirmed now or later; runs {@code lapsed} if it lapsed. */
    void confirm(Handoff handoff, Runnable lapsed) {
        logger.debug("Lock '{}' offered to owner {} (fencing token {})", this.protocol.lockName(),
                this.request.owner(), handoff.fencingToken());
        Grant early = early(handoff);
        if (early != null) {
            this.outcome.granted(early);
            return;
        }
        long sentAt = System.nanoTime();
        this.protocol.confirm(this.request.owner(), this.request.leaseMillis()).whenComplete((confirmed, ex) -> {
            if (ex != null) {
                this.outcome.noReply(ex);
            }
            else if (confirmed) {
                this.outcome.granted(new Grant(this.request.owner(), handoff.fencingToken(), sentAt));
            }
            else {
                lapsed.run();
            }
        });
    }

    /**
     * The grant the holder can run on at once, before it confirms the offer, or null when it must wait for its
     * confirmation's answer. The offer set the key to expire an offer time after the release ran, and the release ran
     * after this acquisition started (it popped an entry this acquisition queued). A release announces only an offer
     * it keeps (lib/offer.lua asks whether the client listens before it writes or announces anything: a publish also
     * reaches replicas, where this client may still listen after a failover), so until a confirmation answers,
     * validity counts as if granted at the start for the offer time. Only while that leaves at least half the offer,
     * and never with replica acknowledgement (the grant waits for the replicas). The confirmation is due when half of
     * the validity left now has passed (at once for an offer too short to time that on the wheel), and is not sent if
     * the hold ends before: most holds handed over end well within it. A confirmation Redis refuses makes the hold
     * lost; one that fails leaves the validity at the offer's.
     */
    private @Nullable Grant early(Handoff handoff) {
        if (this.options.replicaAcks() > 0) {
            return null;
        }
        long leaseNanos = TimeUnit.MILLISECONDS.toNanos(this.request.leaseMillis());
        long offerNanos = Math.min(leaseNanos, this.options.handoffOffer().toNanos());
        long validUntil = this.request.startNanos() + offerNanos - Grant.driftNanos(this.request.leaseMillis());
        long now = System.nanoTime();
        long left = validUntil - now;
        if (left < offerNanos / 2) {
            return null;
        }
        long due = (offerNanos >= DEFERRABLE_OFFER_NANOS) ? now + left / 2 : now;
        Grant.Confirmation confirmation = new Grant.Confirmation(due, () -> {
            long sentAt = System.nanoTime();
            return this.protocol.confirm(this.request.owner(), this.request.leaseMillis())
                .thenApply((confirmed) -> confirmed ? sentAt : -1L);
        });
        return new Grant(this.request.owner(), handoff.fencingToken(),
                this.request.startNanos() - (leaseNanos - offerNanos), confirmation);
    }
}
