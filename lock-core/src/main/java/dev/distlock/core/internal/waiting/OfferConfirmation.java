package dev.distlock.core.internal.waiting;

import java.util.concurrent.CompletableFuture;
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
 * confirmation's send time, or at once with an {@linkplain #early early grant}. An offer that lapsed before the
 * confirmation (the process was paused) went on to the next waiter, which the caller learns to queue again.
 */
final class OfferConfirmation {

    private static final Logger logger = LoggerFactory.getLogger(OfferConfirmation.class);

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

    /** Confirms the offer and decides the outcome with its grant; runs {@code lapsed} when the offer lapsed. */
    void confirm(Handoff handoff, Runnable lapsed) {
        logger.debug("Lock '{}' offered to owner {} (fencing token {}); confirming", this.protocol.lockName(),
                this.request.owner(), handoff.fencingToken());
        long sentAt = System.nanoTime();
        CompletableFuture<Boolean> confirm = this.protocol.confirm(this.request.owner(), this.request.leaseMillis());
        Grant early = early(handoff, sentAt, confirm);
        if (early != null) {
            this.outcome.granted(early);
            return;
        }
        confirm.whenComplete((confirmed, ex) -> {
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
     * The grant the holder can run on at once, its confirmation still on its way, or null when it must wait for it.
     * The offer set the key to expire an offer time after the release ran, and the release ran after this
     * acquisition started (it popped an entry this acquisition queued), so until the confirmation answers, validity
     * counts as if granted at the start for the offer time. Only while that leaves at least half the offer, and never
     * with replica acknowledgement (the grant waits for the replicas). A confirmation Redis refuses makes the hold
     * lost; one that fails leaves the validity at the offer's.
     */
    private @Nullable Grant early(Handoff handoff, long confirmSentAt, CompletableFuture<Boolean> confirm) {
        if (this.options.replicaAcks() > 0) {
            return null;
        }
        long leaseNanos = TimeUnit.MILLISECONDS.toNanos(this.request.leaseMillis());
        long offerNanos = Math.min(leaseNanos, this.options.handoffOffer().toNanos());
        long validUntil = this.request.startNanos() + offerNanos - Grant.driftNanos(this.request.leaseMillis());
        if (validUntil - System.nanoTime() < offerNanos / 2) {
            return null;
        }
        CompletableFuture<Long> confirmation = confirm.thenApply((confirmed) -> confirmed ? confirmSentAt : -1L);
        return new Grant(this.request.owner(), handoff.fencingToken(),
                this.request.startNanos() - (leaseNanos - offerNanos), confirmation);
    }
}
