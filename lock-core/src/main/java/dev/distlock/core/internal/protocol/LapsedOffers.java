package dev.distlock.core.internal.protocol;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.distlock.core.internal.LockEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Passes on a handoff offer that its waiter did not confirm. A release that offered the lock to a waiter looks again
 * once the offer can have lapsed: if the key is gone (the waiter died, froze or was cut off before confirming), the
 * lock is offered to the next live waiter, and so on. A confirmed offer costs one {@code EXISTS}.
 *
 * <p>This is the fast path; the waiters' own checks (their back-off) remain the fallback when the releasing client
 * is gone too.
 */
final class LapsedOffers {

    private static final Logger logger = LoggerFactory.getLogger(LapsedOffers.class);

    private LapsedOffers() {
    }

    /**
     * Looks after an offer to {@code waiter}, made for {@code offerMillis}: once it can have lapsed, runs
     * {@code passOn} (a {@code PASS} of the release script) unless {@code lockKey} exists, and looks after the offer
     * that makes too.
     */
    static void watch(LockEngine engine, String lockName, String lockKey, String waiter, long offerMillis,
            Supplier<CompletableFuture<ReleaseReply>> passOn) {
        if (waiter.isEmpty() || offerMillis <= 0) {
            return;
        }
        // Expiry on the server is exact to the millisecond once the key is read; the margin covers the clock rates.
        long delayNanos = TimeUnit.MILLISECONDS.toNanos(offerMillis + offerMillis / 20 + 10);
        try {
            engine.scheduler().schedule(() -> check(engine, lockName, lockKey, waiter, passOn), delayNanos,
                    TimeUnit.NANOSECONDS);
        }
        catch (RejectedExecutionException closing) {
            // the client is closing: the waiters' own checks remain
        }
    }

    private static void check(LockEngine engine, String lockName, String lockKey, String waiter,
            Supplier<CompletableFuture<ReleaseReply>> passOn) {
        engine.commands().exists(lockKey).thenCompose((held) -> {
            if (held) {
                return CompletableFuture.completedFuture(null);
            }
            logger.debug("Offer of lock '{}' to owner {} lapsed unconfirmed; passing it on", lockName, waiter);
            return passOn.get().thenAccept((reply) -> watch(engine, lockName, lockKey, reply.offeredTo(),
                    reply.offerMillis(), passOn));
        }).whenComplete((ignored, ex) -> {
            if (ex != null) {
                logger.debug("Could not check the offer of lock '{}' to owner {}; the waiters' back-off covers it",
                        lockName, waiter, ex);
            }
        });
    }
}
