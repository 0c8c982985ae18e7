package dev.distlock.core.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.LockOperationException;
import dev.distlock.core.internal.protocol.Grant;
import dev.distlock.core.internal.protocol.OperationTimeouts;
import dev.distlock.core.internal.time.DurationFormat;
import dev.distlock.core.internal.time.Durations;
import org.jspecify.annotations.Nullable;

/**
 * Waits on the caller's thread for a Redis call of one lock, and turns its failure into a
 * {@link LockOperationException} that names the lock and says what went wrong (a timeout says how long it waited).
 */
final class BlockingReplies {

    private final String lockName;

    private final Duration operationTimeout;

    BlockingReplies(String lockName, Duration operationTimeout) {
        this.lockName = lockName;
        this.operationTimeout = operationTimeout;
    }

    <T> T await(CompletableFuture<T> reply) throws InterruptedException {
        try {
            return reply.get();
        }
        catch (ExecutionException ex) {
            throw rethrown(ex.getCause());
        }
    }

    <T> T awaitUninterruptibly(CompletableFuture<T> reply) {
        try {
            return reply.join();
        }
        catch (CompletionException ex) {
            throw rethrown(ex.getCause());
        }
    }

    /**
     * Waits for an acquisition running on other threads, at most its wait time plus two operation timeouts (its last
     * attempt and that attempt's reply).
     *
     * @param abandon gives the acquisition up when the caller stops waiting for it (interrupt or timeout)
     * @param timedOut the message of the {@link LockOperationException} thrown when the wait runs out (built only then)
     * @throws LockNotAcquiredException as the acquisition ended with it, for the caller to word
     */
    Grant awaitGrant(CompletableFuture<Grant> result, Duration waitTime, Consumer<CompletableFuture<Grant>> abandon,
            Supplier<String> timedOut) throws InterruptedException {
        try {
            return result.get(Durations.saturatedNanos(waitTime) + 2 * this.operationTimeout.toNanos(),
                    TimeUnit.NANOSECONDS);
        }
        catch (InterruptedException ex) {
            abandon.accept(result);
            throw ex;
        }
        catch (TimeoutException ex) {
            abandon.accept(result);
            throw new LockOperationException(this.lockName, timedOut.get(), ex);
        }
        catch (ExecutionException ex) {
            if (ex.getCause() instanceof LockNotAcquiredException notAcquired) {
                throw notAcquired;
            }
            throw rethrown(ex.getCause());
        }
    }

    RuntimeException rethrown(@Nullable Throwable cause) {
        if (cause instanceof LockOperationException failure) {
            return new LockOperationException(this.lockName, failure.getMessage(), failure);
        }
        String why = OperationTimeouts.isTimeout(cause)
                ? "Redis did not answer within " + DurationFormat.format(this.operationTimeout)
                : String.valueOf(cause);
        return new LockOperationException(this.lockName, "Redis call for lock '" + this.lockName + "' failed: " + why,
                cause);
    }
}
