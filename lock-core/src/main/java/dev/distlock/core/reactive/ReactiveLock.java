package dev.distlock.core.reactive;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

import dev.distlock.core.RedisLock;
import dev.distlock.core.LockLease;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A {@link RedisLock} seen from Reactor: acquisition as a {@code Mono<LockLease>} over
 * {@link RedisLock#acquireAsync(Duration)}, release as a {@code Mono<Void>}.
 *
 * <p><b>Non-blocking.</b> Subscribing sends the acquisition and returns; no thread waits for the lock. The lease is
 * emitted on {@link Schedulers#parallel()}: never on a Redis I/O thread, and never on the lock client's completion
 * executor, which work that follows must not occupy (a blocking call there would stall every acquisition of the
 * client). Releasing needs one round trip, which {@link #release(LockLease)} sends without waiting for it
 * ({@link LockLease#closeAsync()}), so no thread waits for it either.
 *
 * <p><b>Ownership.</b> The lease belongs to whoever holds the handle, not to a thread: acquisitions are not reentrant
 * (a second acquisition of a held lock waits like any other owner). Reentrancy in reactive code goes through the
 * Reactor {@code Context}; see {@link ReactiveLockTemplate}.
 *
 * <p><b>Cancel.</b> Cancelling the subscription before the lease was emitted releases the lock whenever the cancel
 * lands: an acquisition in flight is abandoned (a grant that raced the cancel is released), and a lease granted but
 * still on its way to the subscriber is released. Once emitted, the lease is the subscriber's to close, even if it
 * cancelled meanwhile (Reactive Streams allows a value to cross a cancel): use {@link ReactiveLockTemplate} or
 * {@code Mono.usingWhen(acquire(...), work, ReactiveLock::release)}, which release a lease they received in that race,
 * rather than operators that may drop a late value ({@code timeout}, a disposed {@code subscribe(consumer)}). Each
 * subscription is an independent acquisition.
 */
public final class ReactiveLock {

    private final RedisLock lock;

    private ReactiveLock(RedisLock lock) {
        this.lock = lock;
    }

    /** The reactive view of {@code lock}. */
    public static ReactiveLock of(RedisLock lock) {
        return new ReactiveLock(Objects.requireNonNull(lock, "lock must not be null"));
    }

    /** The lock name. */
    public String name() {
        return this.lock.name();
    }

    /**
     * Acquires on subscription, waiting at most {@code waitTime}, with a watchdog-renewed lease.
     *
     * @return a {@code Mono} that emits the lease, or errors with {@link dev.distlock.core.LockNotAcquiredException}
     * when the lock stayed busy, or {@link dev.distlock.core.LockOperationException} when Redis failed
     */
    public Mono<LockLease> acquire(Duration waitTime) {
        return acquire(waitTime, null);
    }

    /**
     * Acquires on subscription with a fixed lease, or a watchdog-renewed one when {@code leaseTime} is null.
     *
     * @see #acquire(Duration)
     */
    public Mono<LockLease> acquire(Duration waitTime, @Nullable Duration leaseTime) {
        Objects.requireNonNull(waitTime, "waitTime must not be null");
        return Mono.defer(() -> {
            CompletableFuture<LockLease> lease = ((leaseTime != null) ? this.lock.acquireAsync(waitTime, leaseTime)
                    : this.lock.acquireAsync(waitTime)).toCompletableFuture();
            GrantCustody custody = new GrantCustody();
            lease.whenComplete((granted, failure) -> {
                if (granted != null) {
                    custody.granted(granted);
                }
            });
            // Cancelling the Mono cancels the future, which abandons an acquisition in flight; a lease already granted
            // is released by the custody unless it was emitted. The work that follows runs on Reactor's threads, not
            // on the client's completion executor (the common pool, often one thread).
            return Mono.fromFuture(lease, false)
                .publishOn(Schedulers.parallel())
                .filter((granted) -> custody.deliver())
                .doOnCancel(custody::abandon);
        });
    }

    /**
     * Releases {@code lease} on subscription (one round trip, off the subscribing thread).
     *
     * @return a {@code Mono} that completes once released, or errors with
     * {@link dev.distlock.core.LockLostException} if the lease had been lost
     */
    public static Mono<Void> release(LockLease lease) {
        Objects.requireNonNull(lease, "lease must not be null");
        return Mono.defer(() -> Mono.fromCompletionStage(lease.closeAsync()));
    }
}
