package dev.distlock.core.internal.protocol;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * Fails a Redis call that has not answered within the operation timeout, with a {@link TimeoutException} as
 * {@link CompletableFuture#orTimeout} would, at a fraction of its cost on the hot path.
 *
 * <p>{@code orTimeout} schedules a task on the JDK's single delay thread and wakes that thread whenever the new task
 * is the earliest pending one, which for calls that do not overlap is every call: a thread switch per Redis call.
 * Netty's hashed wheel (the timer Lettuce itself uses for command timeouts) only adds the timeout to a queue; its one
 * thread looks at the wheel every {@link #TICK_MILLIS} ms, so a timeout fires up to that much late, which does not
 * matter for timeouts of seconds. One wheel serves every client in the JVM (its thread is a daemon and idles when
 * nothing is pending). The timeout is completed on the client's completion executor, never on the wheel's thread, so
 * a dependent stage cannot hold up other clients' timeouts.
 */
final class OperationTimeouts {

    static final long TICK_MILLIS = 20;

    private static final Timer WHEEL = new HashedWheelTimer(new DefaultThreadFactory("distlock-timeouts", true),
            TICK_MILLIS, TimeUnit.MILLISECONDS);

    private final long timeoutNanos;

    private final Executor completionExecutor;

    OperationTimeouts(long timeoutNanos, Executor completionExecutor) {
        this.timeoutNanos = timeoutNanos;
        this.completionExecutor = completionExecutor;
    }

    /** Returns {@code reply}, failed with a {@link TimeoutException} if it has not completed within the timeout. */
    <T> CompletableFuture<T> apply(CompletableFuture<T> reply) {
        if (reply.isDone()) {
            return reply;
        }
        Timeout timeout = WHEEL.newTimeout((expired) -> expire(reply), this.timeoutNanos, TimeUnit.NANOSECONDS);
        reply.whenComplete((value, ex) -> timeout.cancel());
        return reply;
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
