package dev.distlock.core.internal.waiting;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.internal.protocol.AttemptResult;
import dev.distlock.core.internal.protocol.Grant;
import dev.distlock.core.internal.protocol.RacingProtocol;
import org.jspecify.annotations.Nullable;

/**
 * One acquisition, from the first attempt to a grant or a decision, without blocking any thread.
 *
 * <p>The first attempt goes straight to Redis, so an uncontended acquire is one round trip. If the lock is taken and
 * the caller may wait, the operation enters the name's {@link WaitRoom}: it subscribes to the unlock channel, queues
 * for the local racer slot (for protocols with a single racer), and then loops: attempt, and on refusal sleep until a
 * wake-up, the holder's TTL or a jittered back-off (at most {@code maxBackoff}) passes, whichever is first, never
 * beyond the deadline.
 *
 * <p>{@link #start()}'s future is the arbiter of every race: a grant that arrives after it was completed otherwise
 * (cancelled by an interrupt, timed out) is abandoned through the protocol's owner-checked clean-up. An attempt whose
 * reply did not arrive has an unknown outcome and is cleaned up the same way.
 */
public final class AcquireOperation {

    private final WaitContext client;

    private final RacingProtocol protocol;

    private final String context;

    private final AcquisitionRequest request;

    private final CompletableFuture<Grant> result = new CompletableFuture<>();

    private @Nullable WaitRoom room;

    private volatile boolean racing;

    public AcquireOperation(WaitContext client, RacingProtocol protocol, long leaseMillis, String context,
            Duration waitTime) {
        this.client = client;
        this.protocol = protocol;
        this.context = context;
        this.request = AcquisitionRequest.startingNow(client.newOwner(), leaseMillis, waitTime);
    }

    /** Starts the operation. The future completes with a grant, or with LockNotAcquired/LockOperation exceptions. */
    public CompletableFuture<Grant> start() {
        this.protocol.attempt(this.request.owner(), this.request.leaseMillis(), this.context, this.request.willWait())
            .whenComplete((reply, ex) -> onReply(reply, ex, 0L));
        return this.result;
    }

    private void onReply(@Nullable AttemptResult reply, @Nullable Throwable ex, long generation) {
        if (ex != null) {
            AcquireFailures.abandonUnknownOutcome(this.client, this.protocol, this.request, this.result, ex);
            return;
        }
        Grant grant = reply.grant();
        if (grant != null) {
            if (grant.expiredOnArrival(this.request.leaseMillis())) {
                this.client.cleanup().releaseQuietly(this.protocol, grant.owner());
                this.result.completeExceptionally(
                        AcquireFailures.tooSlow(this.protocol.lockName(), grant, this.request.leaseMillis()));
            }
            else if (!this.result.complete(grant)) {
                this.client.cleanup().releaseQuietly(this.protocol, grant.owner());
            }
            return;
        }
        if (this.result.isDone()) {
            // Cancelled or interrupted while this attempt was on its way: a queued protocol may have kept our place.
            this.protocol.leaveQueue(this.request.owner());
            return;
        }
        long remaining = this.request.remainingNanos();
        if (remaining <= 0) {
            notAcquired();
            return;
        }
        WaitRoom entered = this.room;
        if (entered == null) {
            enterRoom(remaining);
            return;
        }
        if (reply.splitVote()) {
            retryAfter(Math.min(TimeUnit.MILLISECONDS.toNanos(reply.holderPttlMillis()), remaining));
            return;
        }
        long sleep = Math.min(sleepNanos(reply.holderPttlMillis()), remaining);
        entered.sleep(generation, sleep, this.request.owner()).thenRun(this::attemptInRoom);
    }

    /** Tries again after a delay no wake-up shortens (a split vote: see AttemptResult). */
    private void retryAfter(long delayNanos) {
        try {
            this.client.scheduler().schedule(this::attemptInRoom, delayNanos, TimeUnit.NANOSECONDS);
        }
        catch (RejectedExecutionException closing) {
            closed(closing);
        }
    }

    /** The client was closed under a waiting operation: every future the client handed out still completes. */
    private void closed(RejectedExecutionException cause) {
        if (this.result.completeExceptionally(AcquireFailures.clientClosed(this.protocol.lockName(), cause))) {
            this.protocol.leaveQueue(this.request.owner());
        }
    }

    private void notAcquired() {
        String name = this.protocol.lockName();
        if (this.result.completeExceptionally(new LockNotAcquiredException(name, this.request.waitTime()))) {
            this.protocol.leaveQueue(this.request.owner());
        }
    }

    private void enterRoom(long remaining) {
        WaitRoom entered = this.client.waitRooms().enter(this.protocol.channel(), this.protocol.publishesReleases());
        this.room = entered;
        CompletableFuture<Void> turn = this.protocol.singleRacer() ? entered.racer().acquire()
                : CompletableFuture.completedFuture(null);
        this.result.whenComplete((grant, ex) -> {
            if (this.protocol.singleRacer()) {
                entered.racer().leave(turn);
            }
            this.client.waitRooms().leave(entered);
            if (ex instanceof CancellationException) {
                // Interrupted or cancelled: a grant in flight is abandoned when it arrives; leave any queue now.
                this.protocol.leaveQueue(this.request.owner());
            }
        });
        // Bounds the wait for the racer slot; cancelled on completion so long waits leave no timer behind.
        ScheduledFuture<?> deadline;
        try {
            deadline = this.client.scheduler().schedule(() -> {
                if (!this.racing) {
                    notAcquired();
                }
            }, remaining, TimeUnit.NANOSECONDS);
        }
        catch (RejectedExecutionException closing) {
            closed(closing);
            return;
        }
        this.result.whenComplete((grant, ex) -> deadline.cancel(false));
        // Attempt only once subscribed, so a release between the refused attempt and the subscription is not missed.
        turn.thenCompose((ignored) -> this.client.waitRooms().subscribedOrDone(entered)
                .completeOnTimeout(null, Math.max(0, this.request.remainingNanos()), TimeUnit.NANOSECONDS))
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
        this.protocol.attempt(this.request.owner(), this.request.leaseMillis(), this.context, this.request.willWait())
            .whenComplete((reply, ex) -> onReply(reply, ex, generation));
    }

    private long sleepNanos(long holderPttlMillis) {
        return CheckCadence.racing(this.client.options().maxBackoff().toNanos(), holderPttlMillis);
    }
}
