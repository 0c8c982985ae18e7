package dev.distlock.core.internal;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.Lock;

import dev.distlock.core.LeaseLoss;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.RedisLock;
import dev.distlock.core.internal.hold.DefaultLockLease;
import dev.distlock.core.internal.hold.Hold;
import dev.distlock.core.internal.hold.HoldRelease;
import dev.distlock.core.internal.protocol.Grant;
import dev.distlock.core.internal.protocol.HandoffProtocol;
import dev.distlock.core.internal.protocol.LockProtocol;
import dev.distlock.core.internal.protocol.QueuedProtocol;
import dev.distlock.core.internal.protocol.RacingProtocol;
import dev.distlock.core.internal.time.Durations;
import dev.distlock.core.internal.waiting.Acquirer;
import org.jspecify.annotations.Nullable;

/**
 * A {@link RedisLock} over any {@link LockProtocol}: thread reentrancy, blocking and asynchronous acquisition,
 * lease handles, watchdog registration and release are the same for every lock kind; how a waiter waits is its
 * family's {@link Acquirer}.
 */
public final class ProtocolLock implements RedisLock {

    private final LockEngine engine;

    private final LockProtocol protocol;

    private final HoldRelease release;

    private final BlockingReplies replies;

    private final HoldEndMoves endMoves;

    private final Acquirer acquirer;

    private final HoldKeeping holds;

    /** A lock of the queued family: waiters queue in Redis and are handed the lock. */
    public ProtocolLock(LockEngine engine, HandoffProtocol protocol) {
        this(engine, protocol, Acquirer.queued(engine.waiting(), protocol));
    }

    /** A lock of the racing family: waiters are woken and attempt again. */
    public ProtocolLock(LockEngine engine, RacingProtocol protocol) {
        this(engine, protocol, Acquirer.racing(engine.waiting(), protocol));
    }

    private ProtocolLock(LockEngine engine, LockProtocol protocol, Acquirer acquirer) {
        this.engine = engine;
        this.protocol = protocol;
        this.acquirer = acquirer;
        this.release = new HoldRelease(engine, protocol);
        this.replies = new BlockingReplies(protocol.lockName(), engine.options().operationTimeout());
        this.endMoves = new HoldEndMoves(this.replies);
        this.holds = new HoldKeeping(engine, protocol, this.replies);
    }

    /** The plain reentrant lock: queued, so grants follow arrival order across clients. */
    public static ProtocolLock reentrant(LockEngine engine, String name) {
        return new ProtocolLock(engine, new QueuedProtocol(engine, engine.keys(name)));
    }

    /**
     * The fair lock: the reentrant lock's keys and scripts, whose every attempt looks at the queue first, so that it
     * never takes a free lock ahead of a waiter queued while the lock was free (a holder's lease ran out).
     */
    public static ProtocolLock fair(LockEngine engine, String name) {
        return new ProtocolLock(engine, QueuedProtocol.fair(engine, engine.keys(name)));
    }

    @Override
    public String name() {
        return this.protocol.lockName();
    }

    @Override
    public LockLease acquire(Duration waitTime) throws InterruptedException {
        return acquireBlocking(waitTime, null);
    }

    @Override
    public LockLease acquire(Duration waitTime, Duration leaseTime) throws InterruptedException {
        Durations.requirePositive("leaseTime", leaseTime);
        return acquireBlocking(waitTime, leaseTime);
    }

    @Override
    public Optional<LockLease> tryAcquire(Duration waitTime) throws InterruptedException {
        return tryAcquireBlocking(waitTime, null);
    }

    @Override
    public Optional<LockLease> tryAcquire(Duration waitTime, Duration leaseTime) throws InterruptedException {
        Durations.requirePositive("leaseTime", leaseTime);
        return tryAcquireBlocking(waitTime, leaseTime);
    }

    private Optional<LockLease> tryAcquireBlocking(Duration waitTime, @Nullable Duration leaseTime)
            throws InterruptedException {
        try {
            return Optional.of(acquireBlocking(waitTime, leaseTime));
        }
        catch (LockNotAcquiredException ex) {
            return Optional.empty();
        }
    }

    /** Acquires or throws; a refusal carries what the last attempt learned of the holder. */
    private LockLease acquireBlocking(Duration waitTime, @Nullable Duration leaseTime)
            throws InterruptedException {
        Durations.requireNonNegative("waitTime", waitTime);
        long leaseMillis = leaseMillis(leaseTime);
        this.engine.checkOpen(name());
        Thread thread = Thread.currentThread();
        Hold current = this.engine.threadHolds().current(this.protocol.holdKey(), thread);
        if (current != null && current.isFinished(System.nanoTime())) {
            this.holds.forget(current);
            current = null;
        }
        if (current != null) {
            LockLease again = reenter(current);
            if (again != null) {
                return again;
            }
            // Its last lease was closed by another thread during the round trip: acquire afresh.
        }
        String context = this.protocol.prepare(this.engine.threadHolds(), thread);
        if (Thread.interrupted()) {
            throw new InterruptedException("Interrupted before acquiring lock '" + name() + "'");
        }
        CompletableFuture<Grant> result = this.acquirer.start(leaseMillis, context, waitTime, true);
        Grant grant;
        try {
            grant = this.replies.awaitGrant(result, waitTime, this.holds::abandon, () -> "Acquiring lock '" + name()
                    + "' did not finish within its wait time plus the operation timeout; a possible grant is being"
                    + " released");
        }
        catch (LockNotAcquiredException notAcquired) {
            throw new LockNotAcquiredException(name(), waitTime, notAcquired.holderInstanceId(),
                    notAcquired.holderRemainingLease());
        }
        Hold hold = new Hold(this.protocol, grant, leaseMillis, leaseTime == null, thread);
        this.engine.threadHolds().record(hold);
        this.engine.watchdog().watch(hold);
        this.holds.followConfirmation(hold, grant);
        return newLease(hold);
    }

    private DefaultLockLease newLease(Hold hold) {
        return new DefaultLockLease(hold, this::releaseOneAsync, this.holds::mintToken, this.endMoves);
    }

    /** A new lease on the thread's hold, or null when its last lease was closed meanwhile. */
    private @Nullable LockLease reenter(Hold hold) throws InterruptedException {
        if (!hold.isValid()) {
            if (hold.isFinished(System.nanoTime())) {
                return null;
            }
            throw HoldRelease.lost(hold,
                    "the current thread still holds leases on it; close them before acquiring it again");
        }
        long sentAt = System.nanoTime();
        boolean owned = this.replies.await(this.protocol.renew(hold.owner(), hold.watchdog() ? hold.leaseMillis() : 0));
        if (!owned && hold.isFinished(System.nanoTime())) {
            // Refused because the last lease was closed (and the key deleted) meanwhile, or the fixed lease ran out.
            return null;
        }
        if (!owned) {
            hold.markLost(LeaseLoss.Reason.RENEWAL_REFUSED);
            throw HoldRelease.lost(hold, "the key was deleted or taken over; reentry never recreates it");
        }
        if (hold.watchdog()) {
            hold.renewed(sentAt);
        }
        if (!hold.retain()) {
            return null;
        }
        return newLease(hold);
    }

    /** Drops one open lease of {@code hold}; the last one stops renewal and then deletes the key if still ours. */
    void releaseOne(Hold hold) {
        this.release.releaseOne(hold);
    }

    CompletableFuture<Void> releaseOneAsync(Hold hold) {
        return this.release.releaseOneAsync(hold);
    }

    @Override
    public CompletionStage<LockLease> acquireAsync(Duration waitTime) {
        return acquireAsync(waitTime, null);
    }

    @Override
    public CompletionStage<LockLease> acquireAsync(Duration waitTime, @Nullable Duration leaseTime) {
        Durations.requireNonNegative("waitTime", waitTime);
        long leaseMillis = leaseMillis(leaseTime);
        this.engine.checkOpen(name());
        // Minted with the grant: an asynchronous caller must not block when it asks for the token.
        CompletableFuture<Grant> result = this.acquirer.start(leaseMillis, "", waitTime, false);
        CompletableFuture<LockLease> lease = new CompletableFuture<>();
        // Whoever completes the returned future first decides: the lock with a lease or a failure, or the caller by
        // cancel, orTimeout, completeOnTimeout, complete or completeExceptionally. A completion that is not the
        // lock's abandons the operation: a grant still in flight is released by the operation when it arrives.
        lease.whenComplete((ignored, ex) -> result.cancel(false));
        result.whenComplete((grant, ex) -> this.engine.completionExecutor().execute(() -> {
            if (ex != null) {
                lease.completeExceptionally(ex);
                return;
            }
            if (lease.isDone()) {
                // The caller completed the future while the grant was on its way: nobody will use or close it.
                this.engine.cleanup().releaseQuietly(this.protocol, grant.owner());
                return;
            }
            Hold hold = new Hold(this.protocol, grant, leaseMillis, leaseTime == null, null);
            this.engine.watchdog().watch(hold);
            this.holds.followConfirmation(hold, grant);
            if (!lease.complete(newLease(hold))) {
                // Completed by the caller in between: the hold was never handed out, so release it here.
                this.engine.watchdog().unwatch(hold);
                hold.markReleased();
                this.engine.cleanup().releaseQuietly(this.protocol, grant.owner());
            }
        }));
        return lease;
    }

    @Override
    public boolean isLocked() {
        return this.replies.awaitUninterruptibly(this.protocol.isLocked());
    }

    @Override
    public boolean isHeldByCurrentThread() {
        Hold hold = this.engine.threadHolds().current(this.protocol.holdKey(), Thread.currentThread());
        return hold != null && hold.isValid();
    }

    @Override
    public boolean forceUnlock() {
        return this.replies.awaitUninterruptibly(this.protocol.forceRelease());
    }

    @Override
    public Lock asLock() {
        return new LockView(this, this::unlockCurrentThread);
    }

    /**
     * Releases the current thread's innermost acquisition.
     *
     * @throws IllegalMonitorStateException if the current thread does not hold this lock
     */
    void unlockCurrentThread() {
        Hold hold = this.engine.threadHolds().current(this.protocol.holdKey(), Thread.currentThread());
        if (hold == null) {
            throw new IllegalMonitorStateException("Lock '" + name() + "' is not held by thread "
                    + Thread.currentThread().getName());
        }
        releaseOne(hold);
    }

    private long leaseMillis(@Nullable Duration leaseTime) {
        return (leaseTime != null) ? Durations.leaseMillis("leaseTime", leaseTime)
                : this.engine.options().watchdogLease().toMillis();
    }

    /** This lock's hold as reentrancy outside the thread table sees it. */
    ReentryKey reentryKey() {
        return new ReentryKey(this.engine.clientId(), this.protocol.kind(), this.protocol.holdKey());
    }
}
