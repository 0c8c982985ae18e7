package dev.distlock.core.internal.protocol;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.distlock.core.internal.LockEngine;
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
 */
final class LapsedOffers {

    private static final Logger logger = LoggerFactory.getLogger(LapsedOffers.class);

    /** The pending look of each lock key this client offered, the latest one only. */
    private final ConcurrentMap<String, Look> pending = new ConcurrentHashMap<>();

    /**
     * Looks after an offer to {@code waiter}, made for {@code offerMillis}: once it can have lapsed, runs
     * {@code passOn} (a {@code PASS} of the release script) unless {@code lockKey} exists, and looks after the offer
     * that makes too. Replaces the look at an earlier offer of the same key.
     */
    void watch(LockEngine engine, String lockName, String lockKey, String waiter, long offerMillis,
            Supplier<CompletableFuture<ReleaseReply>> passOn) {
        if (waiter.isEmpty() || offerMillis <= 0) {
            return;
        }
        // Expiry on the server is exact to the millisecond once the key is read; the margin covers the clock rates.
        long delayNanos = TimeUnit.MILLISECONDS.toNanos(offerMillis + offerMillis / 20 + 10);
        Look look = new Look(engine, lockName, lockKey, waiter, passOn);
        try {
            look.scheduled = engine.scheduler().schedule(look, delayNanos, TimeUnit.NANOSECONDS);
        }
        catch (RejectedExecutionException closing) {
            // the client is closing: the waiters' own checks remain
            return;
        }
        Look earlier = this.pending.put(lockKey, look);
        if (earlier != null) {
            earlier.cancel();
        }
    }

    private final class Look implements Runnable {

        private final LockEngine engine;

        private final String lockName;

        private final String lockKey;

        private final String waiter;

        private final Supplier<CompletableFuture<ReleaseReply>> passOn;

        private volatile @Nullable ScheduledFuture<?> scheduled;

        Look(LockEngine engine, String lockName, String lockKey, String waiter,
                Supplier<CompletableFuture<ReleaseReply>> passOn) {
            this.engine = engine;
            this.lockName = lockName;
            this.lockKey = lockKey;
            this.waiter = waiter;
            this.passOn = passOn;
        }

        void cancel() {
            ScheduledFuture<?> future = this.scheduled;
            if (future != null) {
                future.cancel(false);
            }
        }

        @Override
        public void run() {
            LapsedOffers.this.pending.remove(this.lockKey, this);
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
