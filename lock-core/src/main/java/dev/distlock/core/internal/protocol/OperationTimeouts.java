package dev.distlock.core.internal.protocol;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.RedisCommandTimeoutException;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import org.jspecify.annotations.Nullable;

/**
 * Fails a Redis call that has not answered within the operation timeout, with a {@link TimeoutException} as
 * {@link CompletableFuture#orTimeout} would, at a fraction of its cost on the hot path.
 *
 * <p>{@code orTimeout} schedules a task on the JDK's single delay thread and wakes that thread whenever the new task
 * is the earliest pending one, which for calls that do not overlap is every call: a thread switch per Redis call.
 * The timer here is the Lettuce client's own (its {@code ClientResources} timer, a hashed wheel Lettuce times its
 * commands with): adding a timeout only queues it, and the wheel's thread looks at it once a tick (100 ms by default),
 * so a timeout fires up to a tick late, which does not matter for timeouts of seconds. Being the client's, the timer
 * stops with it: this library starts no thread of its own for it. The timeout is completed on the client's completion
 * executor, never on the wheel's thread, so a dependent stage cannot hold up Lettuce's own timeouts.
 *
 * <p>A call of one command needs none of this where the Lettuce client fails its commands after the operation timeout
 * itself ({@code RedisGateway#timesOutCommands()}, see {@code LockCommands}): calls of several commands, subscriptions
 * and clients without Lettuce's command timeout are timed here.
 */
public final class OperationTimeouts {

    private final Timer timer;

    private final long timeoutNanos;

    private final Executor completionExecutor;

    public OperationTimeouts(Timer timer, long timeoutNanos, Executor completionExecutor) {
        this.timer = timer;
        this.timeoutNanos = timeoutNanos;
        this.completionExecutor = completionExecutor;
    }

    /** Returns {@code reply}, failed with a {@link TimeoutException} if it has not completed within the timeout. */
    public <T> CompletableFuture<T> apply(CompletableFuture<T> reply) {
        if (reply.isDone()) {
            return reply;
        }
        Timeout timeout;
        try {
            timeout = this.timer.newTimeout((expired) -> expire(reply), this.timeoutNanos, TimeUnit.NANOSECONDS);
        }
        catch (IllegalStateException | RejectedExecutionException stopped) {
            // The client's resources were shut down before this client was closed: time it the JDK's way.
            return reply.orTimeout(this.timeoutNanos, TimeUnit.NANOSECONDS);
        }
        reply.whenComplete((value, ex) -> timeout.cancel());
        return reply;
    }

    /**
     * Whether {@code failure} says a Redis call did not answer in time: this class's {@link TimeoutException}, or the
     * Lettuce client's own command timeout where it times the calls (see {@code RedisGateway#timesOutCommands()}).
     */
    public static boolean isTimeout(@Nullable Throwable failure) {
        Throwable cause = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
                : failure;
        return cause instanceof TimeoutException || cause instanceof RedisCommandTimeoutException;
    }

    private void expire(CompletableFuture<?> reply) {
        if (reply.isDone()) {
            return;
        }
        Runnable fail = () -> reply.completeExceptionally(new TimeoutException());
        try {
            this.completionExecutor.execute(fail);
        }
        catch (RejectedExecutionException ex) {
            fail.run();
        }
    }
}
