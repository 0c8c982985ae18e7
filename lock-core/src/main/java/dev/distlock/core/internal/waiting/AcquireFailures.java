package dev.distlock.core.internal.waiting;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.LockOperationException;
import dev.distlock.core.internal.protocol.Grant;
import dev.distlock.core.internal.protocol.LockProtocol;
import dev.distlock.core.internal.protocol.OperationTimeouts;
import dev.distlock.core.internal.protocol.OwnerTokens;
import dev.distlock.core.internal.protocol.QueueReply;
import dev.distlock.core.internal.time.DurationFormat;
import org.jspecify.annotations.Nullable;

/** The exceptions an acquisition fails with when Redis did not decide it, with messages that say what to do. */
final class AcquireFailures {

    private AcquireFailures() {
    }

    /** The wait ended without a grant: names the holder's instance and remaining lease when the last refusal did. */
    static LockNotAcquiredException notAcquired(String name, Duration waitTime, @Nullable QueueReply lastRefusal) {
        String holder = (lastRefusal != null && !lastRefusal.holder().isEmpty())
                ? OwnerTokens.instanceIdOf(lastRefusal.holder()) : null;
        Duration remaining = (holder != null && lastRefusal.holderPttlMillis() >= 0)
                ? Duration.ofMillis(lastRefusal.holderPttlMillis()) : null;
        return new LockNotAcquiredException(name, waitTime, holder, remaining);
    }

    /** The client was closed under a waiting acquisition: every future the client handed out still completes. */
    static LockOperationException clientClosed(String name, @Nullable Throwable cause) {
        return new LockOperationException(name, "The lock client was closed while waiting for lock '" + name
                + "'; a place it held in the queue expires by itself", cause);
    }

    /** The grant arrived after its lease could have ended: unusable, so it is released. */
    static LockOperationException tooSlow(String name, Grant grant, long leaseMillis) {
        long lateMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - grant.sentAtNanos());
        return new LockOperationException(name, "Lock '" + name + "' was granted, but the grant arrived " + lateMillis
                + " ms after it was made, longer than the " + DurationFormat.format(Duration.ofMillis(leaseMillis))
                + " lease minus drift: the lease was over on arrival, so the grant is being released. Use a longer "
                + "lease or check the network.", null);
    }

    /**
     * No usable reply to an attempt: its grant may still happen, so the owner is abandoned (tombstone, owner-checked
     * clean-up, retried) and the acquisition fails with {@link #unknownOutcome}.
     */
    static void abandonUnknownOutcome(WaitContext client, LockProtocol protocol, AcquisitionRequest request,
            CompletableFuture<Grant> result, Throwable ex) {
        client.cleanup().abandon(protocol, request.owner(), request.leaseMillis());
        result.completeExceptionally(unknownOutcome(protocol.lockName(), ex, client.options().operationTimeout()));
    }

    /** No usable reply (timeout, connection lost, error): the outcome is unknown and is being cleaned up. */
    static LockOperationException unknownOutcome(String name, Throwable ex, Duration operationTimeout) {
        Throwable cause = (ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex;
        if (cause instanceof LockOperationException failure) {
            return failure;
        }
        String why = OperationTimeouts.isTimeout(cause)
                ? "Redis did not answer within " + DurationFormat.format(operationTimeout)
                : "Redis answered with an error: " + cause.getMessage();
        return new LockOperationException(name, "Could not acquire lock '" + name + "': " + why
                + ". The outcome is unknown, so a possible grant is being released.", cause);
    }
}
