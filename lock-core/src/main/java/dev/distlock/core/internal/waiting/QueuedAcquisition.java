package dev.distlock.core.internal.waiting;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import dev.distlock.core.internal.LockEngine;
import dev.distlock.core.internal.protocol.Grant;
import dev.distlock.core.internal.protocol.QueueReply;
import dev.distlock.core.internal.protocol.QueuedProtocol;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One acquisition of a {@link QueuedProtocol queued lock}, from the first attempt to a grant or a decision, without
 * blocking a thread.
 *
 * <p>The first attempt goes straight to Redis: an uncontended acquire is one round trip. A refused caller that may
 * wait is queued in Redis by that same attempt when its client already listens on the name's wake channel (otherwise
 * it subscribes first and then queues with a second attempt), and then sleeps: the release that reaches it hands it
 * the lock and announces that on the wake channel, and the operation completes with no further round trip. It checks
 * on its place only when the announcement may have been lost: after the holder's lease can have ended (a dead holder's
 * lease runs out; the check hands the lock over), or after a back-off of {@code maxBackoff} for the head of the
 * queue ({@code maxBackoff * (k + 1)^2} for the waiter k places back, at most 100 back-offs), whichever is first,
 * never beyond the deadline. One loop per waiter: at any moment one timer is armed or one subscription or attempt is
 * on its way, never more; the timer serves both the checks and the deadline, which also holds while the waiter
 * subscribes (a subscription that never confirms does not hold the operation past its wait time).
 *
 * <p>{@link #start()}'s future is the arbiter of every race: whoever completes it first decides. A grant or handoff
 * that arrives after it was completed otherwise (cancelled, timed out, gave up) is released, a queue entry is removed,
 * and an attempt whose reply did not arrive is abandoned (tombstone and owner-checked clean-up).
 */
public final class QueuedAcquisition implements HandoffRooms.Waiter {

    private static final Logger logger = LoggerFactory.getLogger(QueuedAcquisition.class);

    private final LockEngine engine;

    private final QueuedProtocol protocol;

    private final AcquisitionRequest request;

    private final CompletableFuture<Grant> result = new CompletableFuture<>();

    private volatile String entry = "";

    private volatile @Nullable QueueReply reference;

    private volatile boolean abandoned;

    /** The last refusal, naming the holder for the not-acquired message. */
    private volatile @Nullable QueueReply lastRefusal;

    private volatile HandoffRooms.@Nullable Room room;

    private volatile @Nullable ScheduledFuture<?> timer;

    /** Guards the one check loop: {@link #timerTicket} and {@link #stepPending}. */
    private final ReentrantLock loop = new ReentrantLock();

    /** Number of the armed timer: a timer that fires with an older one was superseded and does nothing. */
    private long timerTicket;

    /** A subscription or attempt is on its way: its completion takes the next step, and the room's calls wait. */
    private boolean stepPending;

    private final boolean tokenOnDemand;

    public QueuedAcquisition(LockEngine engine, QueuedProtocol protocol, long leaseMillis, Duration waitTime) {
        this(engine, protocol, leaseMillis, waitTime, false);
    }

    /**
     * With {@code tokenOnDemand} a grant on the uncontended path leaves its fencing token to the holder's request:
     * for callers that may block when they ask for it (see {@code QueuedProtocol.attempt}).
     */
    public QueuedAcquisition(LockEngine engine, QueuedProtocol protocol, long leaseMillis, Duration waitTime,
            boolean tokenOnDemand) {
        this.engine = engine;
        this.protocol = protocol;
        this.request = AcquisitionRequest.startingNow(engine.newOwner(), leaseMillis, waitTime);
        this.tokenOnDemand = tokenOnDemand;
    }

    /** Starts the operation. The future completes with a grant, or with LockNotAcquired/LockOperation exceptions. */
    public CompletableFuture<Grant> start() {
        this.result.whenComplete((grant, ex) -> finish(ex));
        if (this.request.willWait() && this.engine.handoffRooms().hasRoom(this.protocol.channel())) {
            // Others of this client wait on the name (or did a moment ago): queue at once, once listening.
            queueOnceSubscribed(enterRoom());
        }
        else {
            send(false);
        }
        return this.result;
    }

    private void send(boolean queue) {
        if (this.result.isDone()) {
            return;
        }
        this.loop.lock();
        try {
            // The attempt is the loop's next step: it supersedes a timer armed meanwhile (the deadline kept while
            // subscribing); its reply arms the next one.
            this.stepPending = true;
            this.timerTicket++;
            cancelTimer();
        }
        finally {
            this.loop.unlock();
        }
        long waitMillis = queue ? Math.max(1, TimeUnit.NANOSECONDS.toMillis(this.request.remainingNanos()))
                : 0;
        this.protocol.attempt(this.request.owner(), this.request.leaseMillis(), waitMillis, this.entry,
                this.tokenOnDemand)
            .whenComplete(this::onReply);
    }

    private void onReply(@Nullable QueueReply reply, @Nullable Throwable ex) {
        if (ex != null) {
            this.abandoned = true;
            AcquireFailures.abandonUnknownOutcome(this.engine, this.protocol, this.request, this.result, ex);
            return;
        }
        Grant grant = reply.grant();
        if (grant != null) {
            HandoffRooms.Room entered = this.room;
            if (entered != null && !this.entry.isEmpty()) {
                // Handed over while this check was on its way: the announcement may still come; it is not an orphan.
                entered.settle(this.request.owner());
            }
            deliver(grant);
            return;
        }
        this.lastRefusal = reply;
        if (this.result.isDone()) {
            // A late reply. After a grant it is stale (the entry it reports was popped by the handoff): ignore it.
            // After giving up, take the entry it may have made out of the queue again.
            if (this.result.isCompletedExceptionally() && reply.queued()) {
                this.engine.cleanup().leaveQueue(this.protocol, this.request.owner(), reply.entry(),
                        this.request.leaseMillis());
            }
            return;
        }
        if (reply.queued()) {
            if (this.entry.isEmpty() && logger.isDebugEnabled()) {
                logger.debug("Waiting for lock '{}' (owner {}): queued at position {} behind {}",
                        this.protocol.lockName(), this.request.owner(), reply.position(), reply.holder());
            }
            this.entry = reply.entry();
            this.reference = reply;
        }
        else if (!this.entry.isEmpty()) {
            // Skipped while queued (our client did not hear the handoff): queue again at once.
            this.entry = "";
            send(true);
            return;
        }
        long remaining = this.request.remainingNanos();
        if (remaining <= 0 || !this.request.willWait()) {
            notAcquired();
            return;
        }
        if (!reply.queued()) {
            if (this.room == null) {
                queueOnceSubscribed(enterRoom());
            }
            else {
                // Refused without queueing (a tombstone of an earlier attempt, or not yet listening): back off.
                schedule(Math.min(CheckCadence.jittered(this.engine.options().maxBackoff().toNanos()), remaining));
            }
            return;
        }
        HandoffRooms.Room entered = this.room;
        RejectedExecutionException closing;
        this.loop.lock();
        try {
            // Decided with the loop held: a becameChecker() meanwhile waits for the timer armed here, then re-arms it.
            boolean checker = entered == null || entered.standsAt(this.request.owner(), reply.position());
            // A waiter behind another of this client's waiters only keeps its deadline; the one ahead checks.
            long sleep = checker ? CheckCadence.queued(this.engine.options().maxBackoff(), reply) : remaining;
            closing = arm(Math.min(sleep, remaining), false);
        }
        finally {
            this.loop.unlock();
        }
        if (closing != null) {
            closed(closing);
        }
    }

    /**
     * Queues once this client listens on the wake channel: a handoff announced before that would find nobody and skip
     * this waiter. The deadline holds meanwhile, however long the subscription takes.
     */
    private void queueOnceSubscribed(HandoffRooms.Room entered) {
        CompletableFuture<Void> listening = entered.subscribedOrFailed();
        if (!listening.isDone()) {
            RejectedExecutionException closing = arm(Math.max(0, this.request.remainingNanos()), true);
            if (closing != null) {
                closed(closing);
                return;
            }
        }
        listening.thenRun(() -> send(true));
    }

    /** The local waiter ahead of this one left: check on the queue from now on. */
    @Override
    public void becameChecker() {
        QueueReply last = this.reference;
        long remaining = this.request.remainingNanos();
        if (this.result.isDone() || last == null || remaining <= 0) {
            return;
        }
        RejectedExecutionException closing;
        this.loop.lock();
        try {
            if (this.stepPending) {
                // A subscription or check is on its way: its reply decides who checks, and arms the one timer.
                return;
            }
            closing = arm(Math.min(CheckCadence.queued(this.engine.options().maxBackoff(), last), remaining), false);
        }
        finally {
            this.loop.unlock();
        }
        if (closing != null) {
            closed(closing);
        }
    }

    private HandoffRooms.Room enterRoom() {
        HandoffRooms.Room entered = this.engine.handoffRooms().enter(this.protocol.channel(),
                (orphan) -> this.engine.cleanup().releaseQuietly(this.protocol, orphan));
        entered.expect(this.request.owner(), this);
        this.room = entered;
        if (this.result.isDone()) {
            // Completed while entering: finish() may have missed the room.
            leaveRoom();
        }
        return entered;
    }

    /**
     * The wake channel said the lock was offered to this operation's owner: confirm the offer (a renewal to the full
     * lease, acknowledged by replicas when configured), and hold the lock from the confirmation's send time: the key
     * expires no earlier than a lease after that. An offer that lapsed before the confirmation (this process was
     * paused) went on to the next waiter: queue again.
     */
    @Override
    public void handedOver(Handoff handoff) {
        logger.debug("Lock '{}' offered to owner {} (fencing token {}); confirming", this.protocol.lockName(),
                this.request.owner(), handoff.fencingToken());
        long sentAt = System.nanoTime();
        CompletableFuture<Boolean> confirm = this.protocol.confirm(this.request.owner(), this.request.leaseMillis());
        Grant early = runsBeforeConfirmation(handoff, sentAt, confirm);
        if (early != null) {
            deliver(early);
            return;
        }
        confirm.whenComplete((confirmed, ex) -> {
            if (ex != null) {
                this.abandoned = true;
                AcquireFailures.abandonUnknownOutcome(this.engine, this.protocol, this.request, this.result, ex);
            }
            else if (confirmed) {
                deliver(new Grant(this.request.owner(), handoff.fencingToken(), sentAt));
            }
            else {
                offerLapsed();
            }
        });
    }

    /**
     * The grant the holder can run on at once, its confirmation still on its way, or null when it must wait for it.
     * The offer set the key to expire an offer time after the release ran, and the release ran after this
     * acquisition started (it popped an entry this acquisition queued), so until the confirmation answers, validity
     * counts as if granted at the start for the offer time. Only while that leaves at least half the offer, and never
     * with replica acknowledgement (the grant waits for the replicas). A confirmation Redis refuses makes the hold
     * lost; one that fails leaves the validity at the offer's.
     */
    private @Nullable Grant runsBeforeConfirmation(Handoff handoff, long confirmSentAt,
            CompletableFuture<Boolean> confirm) {
        if (this.engine.options().replicaAcks() > 0) {
            return null;
        }
        long leaseNanos = TimeUnit.MILLISECONDS.toNanos(this.request.leaseMillis());
        long offerNanos = Math.min(leaseNanos, this.engine.options().handoffOffer().toNanos());
        long validUntil = this.request.startNanos() + offerNanos - Grant.driftNanos(this.request.leaseMillis());
        if (validUntil - System.nanoTime() < offerNanos / 2) {
            return null;
        }
        CompletableFuture<Long> confirmation = confirm.thenApply((confirmed) -> confirmed ? confirmSentAt : -1L);
        return new Grant(this.request.owner(), handoff.fencingToken(),
                this.request.startNanos() - (leaseNanos - offerNanos), confirmation);
    }

    private void offerLapsed() {
        if (this.result.isDone()) {
            return;
        }
        logger.debug("Offer of lock '{}' to owner {} lapsed before it was confirmed; queueing again",
                this.protocol.lockName(), this.request.owner());
        HandoffRooms.Room entered = this.room;
        if (entered != null) {
            entered.expect(this.request.owner(), this);
        }
        this.entry = "";
        send(true);
    }

    private void deliver(Grant grant) {
        if (this.result.isDone() && !this.result.isCompletedExceptionally()) {
            // The same grant arrived twice (announcement and check): nothing to do.
            return;
        }
        if (grant.expiredOnArrival(this.request.leaseMillis())) {
            this.result.completeExceptionally(
                    AcquireFailures.tooSlow(this.protocol.lockName(), grant, this.request.leaseMillis()));
            this.engine.cleanup().releaseQuietly(this.protocol, this.request.owner());
            return;
        }
        if (!this.result.complete(grant) && this.result.isCompletedExceptionally()) {
            // Given up before the grant arrived: it belongs to nobody, pass the lock on.
            this.engine.cleanup().releaseQuietly(this.protocol, this.request.owner());
        }
    }

    private void schedule(long nanos) {
        RejectedExecutionException closing = arm(nanos, false);
        if (closing != null) {
            closed(closing);
        }
    }

    /**
     * Arms the loop's one timer in place of any other. {@code subscribing}: a subscription is on its way meanwhile
     * (the timer is the deadline). Returns why the timer cannot run when the client is closing, for the caller to
     * fail the operation once it no longer holds the loop.
     */
    private @Nullable RejectedExecutionException arm(long nanos, boolean subscribing) {
        this.loop.lock();
        try {
            long ticket = ++this.timerTicket;
            this.stepPending = subscribing;
            cancelTimer();
            try {
                this.timer = this.engine.scheduler().schedule(() -> onTimer(ticket), nanos, TimeUnit.NANOSECONDS);
            }
            catch (RejectedExecutionException closing) {
                return closing;
            }
        }
        finally {
            this.loop.unlock();
        }
        if (this.result.isDone()) {
            cancelTimer();
        }
        return null;
    }

    @Override
    public void clientClosed() {
        closed(null);
    }

    /** The client was closed under this operation: every future the client handed out still completes. */
    private void closed(@Nullable Throwable cause) {
        this.result.completeExceptionally(AcquireFailures.clientClosed(this.protocol.lockName(), cause));
    }

    private void onTimer(long ticket) {
        this.loop.lock();
        try {
            if (ticket != this.timerTicket) {
                // Superseded while firing: a later timer or an attempt took the loop over.
                return;
            }
            this.timerTicket++;
            this.stepPending = true;
        }
        finally {
            this.loop.unlock();
        }
        if (this.result.isDone()) {
            return;
        }
        if (this.request.remainingNanos() <= 0) {
            notAcquired();
            return;
        }
        send(true);
    }

    private void notAcquired() {
        this.result.completeExceptionally(AcquireFailures.notAcquired(this.protocol.lockName(), this.request.waitTime(),
                this.lastRefusal));
    }

    /** Runs once when the result is completed, by anyone: a grant stays; anything else gives the place up. */
    private void finish(@Nullable Throwable ex) {
        cancelTimer();
        leaveRoom();
        if (ex == null || this.abandoned) {
            return;
        }
        String queued = this.entry;
        if (!queued.isEmpty() || ex instanceof CancellationException) {
            this.engine.cleanup().leaveQueue(this.protocol, this.request.owner(), queued, this.request.leaseMillis());
        }
    }

    private void leaveRoom() {
        HandoffRooms.Room entered = this.room;
        if (entered != null) {
            entered.forget(this.request.owner());
            this.engine.handoffRooms().leave(entered);
            this.room = null;
        }
    }

    private void cancelTimer() {
        ScheduledFuture<?> scheduled = this.timer;
        if (scheduled != null) {
            scheduled.cancel(false);
        }
    }
}
