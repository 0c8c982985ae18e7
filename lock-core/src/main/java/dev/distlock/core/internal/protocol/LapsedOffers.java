package dev.distlock.core.internal.protocol;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.distlock.core.internal.LockEngine;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Passes on a handoff offer that its waiter did not confirm. A release that offered the lock to a waiter looks again
 * once the offer can have lapsed: if the key is gone (the waiter died, froze or was cut off before confirming), the
 * lock is offered to the next live waiter, and so on. A confirmed offer costs one {@code EXISTS}, and only the latest
 * offer this client made of a key is looked after: a later release of the same key means this client held it again,
 * so the earlier offer was settled (confirmed, or passed on by someone) and an {@code EXISTS} would tell nothing of it.
 *
 * <p>This is the fast path; the waiters' own checks (their back-off) remain the fallback when the releasing client
 * is gone too.
 *
 * <p>A look is timed on the Lettuce client's wheel timer, as the operation timeouts are: a release that hands over
 * arms one on the thread that decoded its reply (a Lettuce event loop) and usually cancels the previous one, and
 * both are lock-free there, where a {@code ScheduledThreadPoolExecutor} takes its queue's lock and wakes its thread.
 * The wheel fires up to a tick (100 ms by default) late, which is nothing against an offer of seconds; the look
 * itself runs on the completion executor, never on the wheel's thread.
 */
final class LapsedOffers {

    private static final Logger logger = LoggerFactory.getLogger(LapsedOffers.class);

    private final Timer timer;

    private final Executor executor;

    /** The pending look of each lock key this client offered, the latest one only. */
    private final ConcurrentMap<String, Look> pending = new ConcurrentHashMap<>();

    private volatile boolean closed;

    LapsedOffers(Timer timer, Executor executor) {
        this.timer = timer;
        this.executor = executor;
    }

    /**
     * Cancels every pending look and arms no more: the client is closing (the timer is the Lettuce client's and may
     * outlive it). The waiters' own checks remain.
     */
    void close() {
        this.closed = true;
        this.pending.values().forEach(Look::cancel);
        this.pending.clear();
    }

    /**
     * Looks after an offer to {@code waiter}, made for {@code offerMillis}: once it can have lapsed, runs
     * {@code passOn} (a {@code PASS} of the release script) unless {@code lockKey} exists, and looks after the offer
     * that makes too. Replaces the look at an earlier offer of the same key.
     */
    void watch(LockEngine engine, String lockName, String lockKey, String waiter, long offerMillis,
            Supplier<CompletableFuture<ReleaseReply>> passOn) {
        if (waiter.isEmpty() || offerMillis <= 0 || this.closed) {
            return;
        }
        // Expiry on the server is exact to the millisecond once the key is read; the margin covers the clock rates.
        long delayNanos = TimeUnit.MILLISECONDS.toNanos(offerMillis + offerMillis / 20 + 10);
        Look look = new Look(engine, lockName, lockKey, waiter, passOn);
        // Pending before armed: a look that fires runs only while it is still its key's latest.
        Look earlier = this.pending.put(lockKey, look);
        if (earlier != null) {
            earlier.cancel();
        }
        try {
            look.timeout = this.timer.newTimeout(look, delayNanos, TimeUnit.NANOSECONDS);
        }
        catch (IllegalStateException | RejectedExecutionException closing) {
            // the client's resources are shutting down: the waiters' own checks remain
            this.pending.remove(lockKey, look);
            return;
        }
        if (this.closed) {
            look.cancel();
        }
    }

    private final class Look implements TimerTask, Runnable {

        private final LockEngine engine;

        private final String lockName;

        private final String lockKey;

        private final String waiter;

        private final Supplier<CompletableFuture<ReleaseReply>> passOn;

        private volatile @Nullable Timeout timeout;

        Look(LockEngine engine, String lockName, String lockKey, String waiter,
                Supplier<CompletableFuture<ReleaseReply>> passOn) {
            this.engine = engine;
            this.lockName = lockName;
            this.lockKey = lockKey;
            this.waiter = waiter;
            this.passOn = passOn;
        }

        void cancel() {
            Timeout armed = this.timeout;
            if (armed != null) {
                armed.cancel();
            }
        }

        /** On the wheel's thread: the look goes to the completion executor. */
        @Override
        public void run(Timeout expired) {
            try {
                LapsedOffers.this.executor.execute(this);
            }
            catch (RejectedExecutionException ex) {
                LapsedOffers.this.pending.remove(this.lockKey, this);
            }
        }

        @Override
        public void run() {
            if (!LapsedOffers.this.pending.remove(this.lockKey, this) || LapsedOffers.this.closed) {
                // superseded by a later offer of the key (its cancel came too late), or the client closed
                return;
            }
            this.engine.commands().exists(this.lockKey).thenCompose((held) -> {
                if (held) {
                    return CompletableFuture.completedFuture(null);
                }
                logger.debug("Offer of lock '{}' to owner {} lapsed unconfirmed; passing it on", this.lockName,
                        this.waiter);
                return this.passOn.get().thenAccept((reply) -> watch(this.engine, this.lockName, this.lockKey,
                        reply.offeredTo(), reply.offerMillis(), this.passOn));
            }).whenComplete((ignored, ex) -> {
                if (ex != null) {
                    logger.debug("Could not check the offer of lock '{}' to owner {}; the waiters' back-off covers "
                            + "it", this.lockName, this.waiter, ex);
                }
            });
        }
    }
}
