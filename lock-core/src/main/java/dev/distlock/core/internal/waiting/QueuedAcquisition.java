package dev.distlock.core.internal.waiting;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import dev.distlock.core.internal.protocol.Grant;
import dev.distlock.core.internal.protocol.QueueReply;
import dev.distlock.core.internal.protocol.HandoffProtocol;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One acquisition of a {@link HandoffProtocol queued lock}, from the first attempt to a grant or a decision, without
 * blocking a thread.
 *
 * <p>The first attempt goes straight to Redis: an uncontended acquire is one round trip. A refused caller that may
 * wait is queued in Redis by that same attempt when its client already listens on the name's wake channel (otherwise
 * it subscribes first and then queues with a second attempt), and then sleeps: the release that reaches it hands it
 * the lock and announces that on the wake channel, and the operation completes with no further round trip. It checks
 * on its place only when the announcement may have been lost: after the holder's lease can have ended (a dead holder's
 * lease runs out; the check hands the lock over), or after a back-off of {@code maxBackoff} for the head of the
 * queue ({@code maxBackoff * (k + 1)^2} for the waiter k places back, at most 100 back-offs), whichever is first,
 * never beyond the deadline. One {@link CheckLoop} per waiter: at any moment one timer is armed or one subscription
 * or attempt is on its way, never more; the timer serves both the checks and the deadline, which also holds while the
 * waiter subscribes (a subscription that never confirms does not hold the operation past its wait time).
 *
 * <p>The waiter moves through the {@link QueuedPhase}s, one method each; {@link #afterRefusal} decides where a refused
 * attempt leads. {@link #start()}'s future is the arbiter of every race ({@link QueuedOutcome}).
 */
public final class QueuedAcquisition implements HandoffRooms.Waiter {

    private static final Logger logger = LoggerFactory.getLogger(QueuedAcquisition.class);

    private final WaitContext client;

    private final HandoffProtocol protocol;

    private final AcquisitionRequest request;

    private final boolean tokenOnDemand;

    private final QueuedOutcome outcome;

    private final AtomicReference<QueuedPhase> phase = new AtomicReference<>(QueuedPhase.ATTEMPTING);

    private final CheckLoop loop;

    private final OfferConfirmation confirmation;

    /** The place in the queue; empty while not queued. */
    private volatile String entry = "";

    /** The reply that queued this waiter, for the check cadence when it becomes its room's checker. */
    private volatile @Nullable QueueReply reference;

    private volatile HandoffRooms.@Nullable Room room;

    public QueuedAcquisition(WaitContext client, HandoffProtocol protocol, long leaseMillis, Duration waitTime) {
        this(client, protocol, leaseMillis, waitTime, false);
    }

    /**
     * With {@code tokenOnDemand} a grant on the uncontended path leaves its fencing token to the holder's request:
     * for callers that may block when they ask for it (see {@link HandoffProtocol#attempt}).
     */
    public QueuedAcquisition(WaitContext client, HandoffProtocol protocol, long leaseMillis, Duration waitTime,
            boolean tokenOnDemand) {
        this.client = client;
        this.protocol = protocol;
        this.request = AcquisitionRequest.startingNow(client.newOwner(), leaseMillis, waitTime);
        this.tokenOnDemand = tokenOnDemand;
        this.outcome = new QueuedOutcome(client, protocol, this.request);
        this.confirmation = new OfferConfirmation(client.options(), protocol, this.request, this.outcome);
        this.loop = new CheckLoop(client.scheduler(), this::onTimer, this.outcome::isDone);
    }

    /** Starts the operation. The future completes with a grant, or with LockNotAcquired/LockOperation exceptions. */
    public CompletableFuture<Grant> start() {
        this.outcome.future().whenComplete((grant, ex) -> finish(ex));
        if (this.request.willWait() && this.client.handoffRooms().hasRoom(this.protocol.channel())) {
            // Others of this client wait on the name (or did a moment ago): queue at once, once listening.
            subscribe(enterRoom());
        }
        else {
            attempt(false);
        }
        return this.outcome.future();
    }

    QueuedPhase phase() {
        return this.phase.get();
    }

    private void enter(QueuedPhase next) {
        this.phase.updateAndGet((current) -> (current == QueuedPhase.DONE) ? QueuedPhase.DONE : next);
    }

    /** ATTEMPTING: one attempt; {@code queue} keeps (or takes) a place in the queue when refused. */
    private void attempt(boolean queue) {
        if (this.outcome.isDone()) {
            return;
        }
        enter(QueuedPhase.ATTEMPTING);
        this.loop.stepStarted();
        long waitMillis = queue ? Math.max(1, TimeUnit.NANOSECONDS.toMillis(this.request.remainingNanos())) : 0;
        this.protocol.attempt(this.request.owner(), this.request.leaseMillis(), waitMillis, this.entry,
                this.tokenOnDemand)
            .whenComplete(this::onReply);
    }

    private void onReply(@Nullable QueueReply reply, @Nullable Throwable ex) {
        if (ex != null) {
            this.outcome.noReply(ex);
            return;
        }
        Grant grant = reply.grant();
        if (grant != null) {
            HandoffRooms.Room entered = this.room;
            if (entered != null && !this.entry.isEmpty()) {
                // Handed over while this check was on its way: the announcement may still come; it is not an orphan.
                entered.settle(this.request.owner());
            }
            this.outcome.granted(grant);
            return;
        }
        if (this.outcome.refusedLate(reply)) {
            return;
        }
        boolean skipped = !reply.queued() && !this.entry.isEmpty();
        if (reply.queued()) {
            holdPlace(reply);
        }
        long remaining = this.request.remainingNanos();
        switch (afterRefusal(reply, skipped, remaining)) {
            case ATTEMPTING -> queueAgain();
            case SUBSCRIBING -> subscribe(enterRoom());
            case BACKING_OFF -> backOff(remaining);
            case QUEUED -> sleepQueued(reply, remaining);
            case DONE -> this.outcome.notAcquired();
            case CONFIRMING -> throw new IllegalStateException("Only an announcement offers the lock");
        }
    }

    /** The phase a refused attempt leads to. */
    private QueuedPhase afterRefusal(QueueReply reply, boolean skipped, long remaining) {
        if (skipped) {
            // Skipped while queued (our client did not hear the handoff): queue again at once.
            return QueuedPhase.ATTEMPTING;
        }
        if (remaining <= 0 || !this.request.willWait()) {
            return QueuedPhase.DONE;
        }
        if (reply.queued()) {
            return QueuedPhase.QUEUED;
        }
        // Refused without queueing: not listening yet, or (listening) a tombstone of an earlier attempt.
        return (this.room == null) ? QueuedPhase.SUBSCRIBING : QueuedPhase.BACKING_OFF;
    }

    private void holdPlace(QueueReply reply) {
        if (this.entry.isEmpty() && logger.isDebugEnabled()) {
            logger.debug("Waiting for lock '{}' (owner {}): queued at position {} behind {}",
                    this.protocol.lockName(), this.request.owner(), reply.position(), reply.holder());
        }
        this.entry = reply.entry();
        this.reference = reply;
    }

    private void queueAgain() {
        this.entry = "";
        attempt(true);
    }

    /**
     * SUBSCRIBING: queues once this client listens on the wake channel, as a handoff announced before that would find
     * nobody and skip this waiter. The deadline holds meanwhile, however long the subscription takes.
     */
    private void subscribe(HandoffRooms.Room entered) {
        enter(QueuedPhase.SUBSCRIBING);
        CompletableFuture<Void> listening = entered.subscribedOrFailed();
        if (!listening.isDone() && failedToArm(this.loop.arm(Math.max(0, this.request.remainingNanos()), true))) {
            return;
        }
        listening.thenRun(() -> attempt(true));
    }

    /** BACKING_OFF: refused without a place in the queue; try again after a jittered back-off. */
    private void backOff(long remaining) {
        enter(QueuedPhase.BACKING_OFF);
        failedToArm(this.loop.arm(
                Math.min(CheckCadence.jittered(this.client.options().maxBackoff().toNanos()), remaining), false));
    }

    /**
     * QUEUED: sleeps until the announcement or the timer. Decided with the loop held: a becameChecker() meanwhile waits
     * for the timer armed here, then re-arms it. A waiter behind another of this client's waiters only keeps its
     * deadline; the one ahead checks.
     */
    private void sleepQueued(QueueReply reply, long remaining) {
        enter(QueuedPhase.QUEUED);
        HandoffRooms.Room entered = this.room;
        failedToArm(this.loop.armDeciding(() -> {
            boolean checker = entered == null || entered.standsAt(this.request.owner(), reply.position());
            long sleep = checker ? CheckCadence.queued(this.client.options().maxBackoff(), reply) : remaining;
            return Math.min(sleep, remaining);
        }));
        if (entered != null) {
            entered.dropIfGone(this.request.owner());
        }
    }

    /** The local waiter ahead of this one left: check on the queue from now on. */
    @Override
    public void becameChecker() {
        QueueReply last = this.reference;
        long remaining = this.request.remainingNanos();
        if (this.outcome.isDone() || last == null || remaining <= 0) {
            return;
        }
        failedToArm(this.loop.armUnlessStepPending(
                () -> Math.min(CheckCadence.queued(this.client.options().maxBackoff(), last), remaining)));
    }

    /** The timer fired (the loop counts a step as on its way): check on the place, or give up at the deadline. */
    private void onTimer() {
        if (this.outcome.isDone()) {
            return;
        }
        if (this.request.remainingNanos() <= 0) {
            this.outcome.notAcquired();
            return;
        }
        attempt(true);
    }

    /** CONFIRMING: the wake channel said the lock was offered to this operation's owner. */
    @Override
    public void handedOver(Handoff handoff) {
        enter(QueuedPhase.CONFIRMING);
        this.confirmation.confirm(handoff, this::offerLapsed);
    }

    /** The offer lapsed before the confirmation (this process was paused) and went on: queue again. */
    private void offerLapsed() {
        if (this.outcome.isDone()) {
            return;
        }
        logger.debug("Offer of lock '{}' to owner {} lapsed before it was confirmed; queueing again",
                this.protocol.lockName(), this.request.owner());
        HandoffRooms.Room entered = this.room;
        if (entered != null) {
            entered.expect(this.request.owner(), this);
        }
        queueAgain();
    }

    private HandoffRooms.Room enterRoom() {
        HandoffRooms.Room entered = this.client.handoffRooms().enter(this.protocol.channel(),
                (orphan) -> this.client.cleanup().releaseQuietly(this.protocol, orphan));
        entered.expect(this.request.owner(), this);
        this.room = entered;
        if (this.outcome.isDone()) {
            // Completed while entering: finish() may have missed the room.
            leaveRoom();
        }
        return entered;
    }

    @Override
    public void clientClosed() {
        this.outcome.closed(null);
    }

    /** Fails the operation when its timer could not be armed (the client is closing); true if so. */
    private boolean failedToArm(@Nullable RejectedExecutionException closing) {
        if (closing != null) {
            this.outcome.closed(closing);
        }
        return closing != null;
    }

    /** DONE: runs once when the result is completed, by anyone: a grant stays; anything else gives the place up. */
    private void finish(@Nullable Throwable ex) {
        this.phase.set(QueuedPhase.DONE);
        this.loop.cancel();
        leaveRoom();
        this.outcome.leavePlace(ex, this.entry);
    }

    private void leaveRoom() {
        HandoffRooms.Room entered = this.room;
        if (entered != null) {
            entered.forget(this.request.owner());
            this.client.handoffRooms().leave(entered);
            this.room = null;
        }
    }
}
