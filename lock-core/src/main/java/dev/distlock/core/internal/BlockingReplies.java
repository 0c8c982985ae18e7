package dev.distlock.core.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import dev.distlock.core.LockOperationException;
import dev.distlock.core.internal.time.DurationFormat;
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

    RuntimeException rethrown(@Nullable Throwable cause) {
        if (cause instanceof LockOperationException failure) {
            return new LockOperationException(this.lockName, failure.getMessage(), failure);
        }
        String why = (cause instanceof TimeoutException)
                ? "Redis did not answer within " + DurationFormat.format(this.operationTimeout)
                : String.valueOf(cause);
        return new LockOperationException(this.lockName, "Redis call for lock '" + this.lockName + "' failed: " + why,
                cause);
    }
}
