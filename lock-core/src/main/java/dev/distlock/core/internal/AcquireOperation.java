package dev.distlock.core.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.LockOperationException;
import org.jspecify.annotations.Nullable;

/**
 * One acquisition, from the first attempt to a grant or a decision, without blocking any thread.
 *
 * <p>The first attempt goes straight to Redis, so an uncontended acquire is one round trip. If the lock is taken and
 * the caller may wait, the operation enters the name's {@link WaitRoom}: it subscribes to the unlock channel, queues
 * for the local racer slot, and then loops: attempt, and on refusal sleep until a wake-up, the holder's TTL or a
 * jittered back-off (at most {@code maxBackoff}) passes, whichever is first, never beyond the deadline.
 *
 * <p>{@link #result()} is the arbiter of every race: a grant that arrives after the result was completed otherwise
 * (cancelled by an interrupt, timed out) is released by an owner-checked script. An attempt whose reply did not
 * arrive has an unknown outcome and is cleaned up the same way.
 */
final class AcquireOperation {

    private final LockEngine engine;

    private final LockKeys keys;

    private final long leaseMillis;

    private final Duration waitTime;

    private final long deadlineNanos;

    private final String owner;

    private final CompletableFuture<Grant> result = new CompletableFuture<>();

    private @Nullable WaitRoom room;

    private volatile boolean racing;

    AcquireOperation(LockEngine engine, LockKeys keys, long leaseMillis, Duration waitTime) {
        this.engine = engine;
        this.keys = keys;
        this.leaseMillis = leaseMillis;
        this.waitTime = waitTime;
        this.deadlineNanos = System.nanoTime() + Durations.saturatedNanos(waitTime);
        this.owner = engine.newOwner();
    }

    /** Starts the operation; the returned future is {@link #result()}. */
    CompletableFuture<Grant> start() {
        this.engine.attempt(this.keys, this.owner, this.leaseMillis)
            .whenComplete((reply, ex) -> onReply(reply, ex, false, 0L));
        return this.result;
    }

    CompletableFuture<Grant> result() {
        return this.result;
    }

    private void onReply(@Nullable AttemptResult reply, @Nullable Throwable ex, boolean inRoom, long generation) {
        if (ex != null) {
            this.engine.releaseQuietly(this.keys, this.owner);
            this.result.completeExceptionally(operationFailure(ex));
            return;
        }
        Grant grant = reply.grant();
        if (grant != null) {
            if (!this.result.complete(grant)) {
                this.engine.releaseQuietly(this.keys, this.owner);
            }
            return;
        }
        if (this.result.isDone()) {
            return;
        }
        long remaining = this.deadlineNanos - System.nanoTime();
        if (remaining <= 0) {
            this.result.completeExceptionally(new LockNotAcquiredException(this.keys.name(), this.waitTime));
            return;
        }
        if (!inRoom) {
            enterRoom(remaining);
            return;
        }
        long sleep = Math.min(sleepNanos(reply.holderPttlMillis()), remaining);
        this.room.sleep(generation, sleep).thenRun(this::attemptInRoom);
    }

    private void enterRoom(long remaining) {
        WaitRoom entered = this.engine.waitRooms().enter(this.keys.channel());
        CompletableFuture<Void> myTurn = entered.racer().acquire();
        this.room = entered;
        this.result.whenComplete((grant, ex) -> {
            entered.racer().leave(myTurn);
            this.engine.waitRooms().leave(entered);
        });
        CompletableFuture.delayedExecutor(remaining, TimeUnit.NANOSECONDS).execute(() -> {
            if (!this.racing) {
                this.result.completeExceptionally(new LockNotAcquiredException(this.keys.name(), this.waitTime));
            }
        });
        // Attempt only once subscribed, so a release between the refused attempt and the subscription is not missed.
        myTurn.thenCompose((ignored) -> this.engine.waitRooms().subscribedOrDone(entered)
                .completeOnTimeout(null, Math.max(0, this.deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS))
            .thenRun(() -> {
                this.racing = true;
                attemptInRoom();
            });
    }

    private void attemptInRoom() {
        if (this.result.isDone()) {
            return;
        }
        long generation = this.room.generation();
        this.engine.attempt(this.keys, this.owner, this.leaseMillis)
            .whenComplete((reply, ex) -> onReply(reply, ex, true, generation));
    }

    private long sleepNanos(long holderPttlMillis) {
        long backoff = this.engine.options().maxBackoff().toNanos();
        // Jitter spreads the retries of waiters in different processes that missed the same wake-up.
        long jittered = backoff / 2 + ThreadLocalRandom.current().nextLong(backoff / 2 + 1);
        if (holderPttlMillis >= 0) {
            return Math.min(jittered, TimeUnit.MILLISECONDS.toNanos(holderPttlMillis + 1));
        }
        return jittered;
    }

    private LockOperationException operationFailure(Throwable ex) {
        Throwable cause = (ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex;
        String why = (cause instanceof TimeoutException)
                ? "Redis did not answer within " + this.engine.options().operationTimeout()
                : "Redis answered with an error: " + cause.getMessage();
        return new LockOperationException(this.keys.name(), "Could not acquire lock '" + this.keys.name() + "': " + why
                + ". The outcome is unknown, so a possible grant is being released.", cause);
    }
}
