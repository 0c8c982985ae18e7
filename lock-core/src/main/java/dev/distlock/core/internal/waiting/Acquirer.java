package dev.distlock.core.internal.waiting;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.distlock.core.internal.protocol.Grant;
import dev.distlock.core.internal.protocol.HandoffProtocol;
import dev.distlock.core.internal.protocol.RacingProtocol;

/**
 * How a lock family waits: starts one acquisition, from the first attempt to a grant or a decision. The future
 * completes with a grant, or with LockNotAcquired/LockOperation exceptions; whoever completes it first decides.
 */
@FunctionalInterface
public interface Acquirer {

    /**
     * Starts an acquisition.
     *
     * @param context the protocol's {@code prepare} context (used by the racing family)
     * @param tokenOnDemand whether a grant may leave its fencing token to the holder's request (used by the queued
     * family: for callers that may block when they ask for it)
     */
    CompletableFuture<Grant> start(long leaseMillis, String context, Duration waitTime, boolean tokenOnDemand);

    /** The queued family: a {@link QueuedAcquisition}, queued in Redis and handed the lock. */
    static Acquirer queued(WaitContext client, HandoffProtocol protocol) {
        return (leaseMillis, context, waitTime, tokenOnDemand) -> new QueuedAcquisition(client, protocol,
                leaseMillis, waitTime, tokenOnDemand).start();
    }

    /** The racing family: an {@link AcquireOperation}, woken to attempt again. */
    static Acquirer racing(WaitContext client, RacingProtocol protocol) {
        return (leaseMillis, context, waitTime, tokenOnDemand) -> new AcquireOperation(client, protocol,
                leaseMillis, context, waitTime).start();
    }
}
