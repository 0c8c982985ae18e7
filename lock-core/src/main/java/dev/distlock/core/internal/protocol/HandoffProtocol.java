package dev.distlock.core.internal.protocol;

import java.util.concurrent.CompletableFuture;

/**
 * The queued family (reentrant, fair, write, multi-lock members): a refused waiter keeps a place in a queue in Redis,
 * and the release that reaches it offers it the lock and announces that on its client's wake channel; the waiter
 * confirms the offer. {@code QueuedAcquisition} waits this way.
 */
public interface HandoffProtocol extends LockProtocol {

    /** This client's wake channel for the name: handoffs to its waiters are announced here. */
    String channel();

    /**
     * One acquire attempt. With {@code waitMillis > 0} a refused caller is queued (or, with its {@code entry} from an
     * earlier reply, keeps its place and learns where it stands); with 0 it never queues. With
     * {@code tokenOnDemand} a grant on the uncontended path may leave its fencing token to {@link #mintToken}: for
     * callers that can block when the holder asks for it.
     */
    CompletableFuture<QueueReply> attempt(String owner, long leaseMillis, long waitMillis, String entry,
            boolean tokenOnDemand);

    /**
     * Confirms a handoff offer to {@code owner}: extends the key to the full lease, with replica acknowledgement when
     * configured. False when the offer was no longer the owner's (it lapsed and passed on).
     */
    CompletableFuture<Boolean> confirm(String owner, long leaseMillis);

    /** A waiter gives up: removes its entry, and releases the lock if it was handed over meanwhile. */
    CompletableFuture<Boolean> leave(String owner, String entry);
}
