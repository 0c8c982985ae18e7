package dev.distlock.core.internal.waiting;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

import dev.distlock.core.internal.protocol.Grant;
import dev.distlock.core.internal.protocol.QueueReply;
import dev.distlock.core.internal.protocol.HandoffProtocol;
import org.jspecify.annotations.Nullable;

/**
 * The arbiter of one {@link QueuedAcquisition}: its result, which whoever completes first decides, and what becomes
 * of a grant, a place in the queue or an attempt that comes too late. A grant or handoff that arrives after the result
 * was completed otherwise (cancelled, timed out, gave up) is released, a queue entry is removed, and an attempt whose
 * reply did not arrive is abandoned (tombstone and owner-checked clean-up).
 */
final class QueuedOutcome {

    private final WaitContext client;

    private final HandoffProtocol protocol;

    private final AcquisitionRequest request;

    private final CompletableFuture<Grant> result = new CompletableFuture<>();

    /** An attempt or confirmation got no reply: the abandon cleans up, the place is not left separately. */
    private volatile boolean abandoned;

    /** The last refusal, naming the holder for the not-acquired message. */
    private volatile @Nullable QueueReply lastRefusal;

    QueuedOutcome(WaitContext client, HandoffProtocol protocol, AcquisitionRequest request) {
        this.client = client;
        this.protocol = protocol;
        this.request = request;
    }

    CompletableFuture<Grant> future() {
        return this.result;
    }

    boolean isDone() {
        return this.result.isDone();
    }

    /**
     * Records a refusal; true when it came after the decision. After a grant it is stale (the entry it reports was
     * popped by the handoff): ignored. After giving up, the entry it may have made is taken out of the queue again.
     */
    boolean refusedLate(QueueReply reply) {
        this.lastRefusal = reply;
        if (!this.result.isDone()) {
            return false;
        }
        if (this.result.isCompletedExceptionally() && reply.queued()) {
            this.client.cleanup().leaveQueue(this.protocol, this.request.owner(), reply.entry(),
                    this.request.leaseMillis());
        }
        return true;
    }

    /** Completes with the grant, unless it is unusable or the result was decided otherwise: then it is released. */
    void granted(Grant grant) {
        if (this.result.isDone() && !this.result.isCompletedExceptionally()) {
            // The same grant arrived twice (announcement and check): nothing to do.
            return;
        }
        if (grant.expiredOnArrival(this.request.leaseMillis())) {
            this.result.completeExceptionally(
                    AcquireFailures.tooSlow(this.protocol.lockName(), grant, this.request.leaseMillis()));
            this.client.cleanup().releaseQuietly(this.protocol, this.request.owner());
            return;
        }
        if (!this.result.complete(grant) && this.result.isCompletedExceptionally()) {
            // Given up before the grant arrived: it belongs to nobody, pass the lock on.
            this.client.cleanup().releaseQuietly(this.protocol, this.request.owner());
        }
    }

    /** No usable reply to an attempt or confirmation: the owner is abandoned and the outcome reported unknown. */
    void noReply(Throwable ex) {
        this.abandoned = true;
        AcquireFailures.abandonUnknownOutcome(this.client, this.protocol, this.request, this.result, ex);
    }

    void notAcquired() {
        this.result.completeExceptionally(AcquireFailures.notAcquired(this.protocol.lockName(), this.request.waitTime(),
                this.lastRefusal));
    }

    /** The client was closed under this operation: every future the client handed out still completes. */
    void closed(@Nullable Throwable cause) {
        this.result.completeExceptionally(AcquireFailures.clientClosed(this.protocol.lockName(), cause));
    }

    /** Once decided ({@code ex} null for a grant): anything but a grant or an abandon gives the place up. */
    void leavePlace(@Nullable Throwable ex, String entry) {
        if (ex == null || this.abandoned) {
            return;
        }
        if (!entry.isEmpty() || ex instanceof CancellationException) {
            this.client.cleanup().leaveQueue(this.protocol, this.request.owner(), entry, this.request.leaseMillis());
        }
    }
}
