package dev.distlock.core.reactive;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

import dev.distlock.core.LockClient;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.LockTemplate;
import dev.distlock.core.LostLeasePolicy;
import dev.distlock.core.RedisLock;
import dev.distlock.core.internal.TemplateDefaults;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.util.context.ContextView;

/**
 * Runs a {@code Mono} or {@code Flux} while holding a lock, without blocking a thread: the reactive counterpart of
 * {@link LockTemplate}.
 *
 * <pre>{@code
 * Mono<Receipt> receipt = reactiveLockTemplate.execute("order:" + id,
 *         (lease) -> orders.reserve(id, lease.fencingToken()));
 *
 * Flux<Line> lines = reactiveLockTemplate.executeMany("export", (lease) -> exporter.lines());
 * }</pre>
 *
 * <p><b>When.</b> Nothing happens until subscription. Each subscription acquires the lock through
 * {@link ReactiveLock} (no thread waits), then subscribes to the callback's publisher, and releases the lock exactly
 * once when that publisher completes, errors or is cancelled. A {@code Flux} holds the lock until its last element
 * and completion. A cancel releases the lock whenever it lands: an acquisition in flight is abandoned, and a lease
 * granted as the cancel arrived is released too.
 *
 * <p><b>The lease.</b> The callback receives the lease; the publisher it returns (and everything upstream of it) also
 * finds it through {@link #currentLease()} in the Reactor {@code Context}.
 *
 * <p><b>Reentrancy.</b> Leases are owned by the pipeline, not by a thread. A nested section on a lock that an
 * enclosing section of the same pipeline holds (found in the subscriber {@code Context}) re-uses that lease: it runs
 * without acquiring or releasing. "The same lock" means what it means for a thread's reentry: the same client, lock
 * kind and name, so a plain lock, the read lock and the write lock of one name are three locks, and a nested write
 * lock is acquired even inside the plain lock of its name. A nested section on one member of an enclosing multi-lock
 * reenters that member's lease; a nested multi-lock whose members enclosing sections hold only in part fails with
 * {@link IllegalStateException} instead of waiting for the pipeline's own holds. Nesting the read and the write lock
 * of one name waits for the pipeline's own hold until the wait time (reactive sections neither upgrade nor
 * downgrade). A nested section whose outer lease was lost fails with {@link LockLostException}. Without that context
 * (an independent pipeline), a second acquisition of a held lock waits like any other owner.
 *
 * <p><b>Lost lease.</b> The {@link LostLeasePolicy} decides: {@code FAIL} lets the publisher finish and then signals
 * {@link LockLostException} instead of completing (a {@code Mono} errors instead of emitting its value; a
 * {@code Flux} errors after the elements it already emitted); {@code INTERRUPT} cancels the callback's publisher at
 * the moment of loss and signals {@link LockLostException}; {@code IGNORE} only logs.
 *
 * <p><b>Not acquired.</b> {@code execute} and {@code executeMany} signal {@link LockNotAcquiredException} when the
 * lock stayed busy for the wait time; {@code tryExecute} completes empty instead.
 */
public final class ReactiveLockTemplate {

    private static final Logger logger = LoggerFactory.getLogger(ReactiveLockTemplate.class);

    private final TemplateDefaults defaults;

    /** A template with the client, defaults and lost-lease policy of {@code template}. */
    public ReactiveLockTemplate(LockTemplate template) {
        this(template.client(), template.defaultWaitTime(), template.defaultLeaseTime(), template.lostLeasePolicy());
    }

    /**
     * @param client the lock client
     * @param defaultWaitTime how long to wait when a call gives no wait time (zero: one attempt)
     * @param defaultLeaseTime fixed lease when a call gives none, or null for watchdog-renewed leases
     * @param lostLeasePolicy what to do when a lease is lost while the publisher runs
     */
    public ReactiveLockTemplate(LockClient client, Duration defaultWaitTime, @Nullable Duration defaultLeaseTime,
            LostLeasePolicy lostLeasePolicy) {
        this.defaults = new TemplateDefaults(client, defaultWaitTime, defaultLeaseTime, lostLeasePolicy);
    }

    /** The client this template uses. */
    public LockClient client() {
        return this.defaults.client();
    }

    /** How long calls without an explicit wait time wait. */
    public Duration defaultWaitTime() {
        return this.defaults.waitTime();
    }

    /** The fixed lease of calls without one, or null for watchdog-renewed leases. */
    public @Nullable Duration defaultLeaseTime() {
        return this.defaults.leaseTime();
    }

    /** What happens when a lease is lost while a publisher runs. */
    public LostLeasePolicy lostLeasePolicy() {
        return this.defaults.lostLeasePolicy();
    }

    /**
     * The lease of the innermost locked section of the subscribing pipeline; empty outside one.
     */
    public static Mono<LockLease> currentLease() {
        return Mono.deferContextual((context) -> Mono.justOrEmpty(currentLease(context)));
    }

    /** The lease of the innermost locked section recorded in {@code context}, if any. */
    public static Optional<LockLease> currentLease(ContextView context) {
        ContextLeases leases = ContextLeases.of(context);
        return (leases != null) ? Optional.of(leases.innermost()) : Optional.empty();
    }

    /** Runs {@code action} holding the lock {@code name}, waiting up to the default wait time. */
    public <T> Mono<T> execute(String name, Function<LockLease, ? extends Publisher<? extends T>> action) {
        return execute(lockNamed(name), this.defaults.waitTime(), this.defaults.leaseTime(), action);
    }

    /** Like {@link #execute(String, Function)} with an explicit wait time. */
    public <T> Mono<T> execute(String name, Duration waitTime,
            Function<LockLease, ? extends Publisher<? extends T>> action) {
        return execute(this.defaults.client().getLock(name), waitTime, this.defaults.leaseTime(), action);
    }

    /**
     * Runs {@code action} holding {@code lock}; at most one element of its publisher is used. The general form.
     *
     * @param leaseTime a fixed lease, or null for a watchdog-renewed one
     */
    public <T> Mono<T> execute(RedisLock lock, Duration waitTime, @Nullable Duration leaseTime,
            Function<LockLease, ? extends Publisher<? extends T>> action) {
        Objects.requireNonNull(action, "action must not be null");
        ReactiveLock reactive = ReactiveLock.of(lock);
        return Mono.deferContextual((context) -> {
            LockLease outer = ContextLeases.held(context, lock);
            if (outer != null) {
                return Mono.from(reenter(outer, action));
            }
            return Mono.usingWhen(reactive.acquire(waitTime, leaseTime),
                    (lease) -> Mono.<T>from(guarded(lease, action))
                        .contextWrite((inner) -> ContextLeases.with(inner, lock, lease)),
                    this::releaseAfterCompletion, this::releaseAfterError, this::releaseAfterCancel)
                .onErrorMap(ReactiveLockTemplate::isWrappedLoss, Throwable::getCause);
        });
    }

    /** Runs {@code action} holding the lock {@code name} until its {@code Flux} terminates or is cancelled. */
    public <T> Flux<T> executeMany(String name, Function<LockLease, ? extends Publisher<? extends T>> action) {
        return executeMany(lockNamed(name), this.defaults.waitTime(), this.defaults.leaseTime(), action);
    }

    /** Like {@link #executeMany(String, Function)} for any lock, wait and lease (null: watchdog-renewed). */
    public <T> Flux<T> executeMany(RedisLock lock, Duration waitTime, @Nullable Duration leaseTime,
            Function<LockLease, ? extends Publisher<? extends T>> action) {
        return hold(lock, waitTime, leaseTime, action);
    }

    /** Runs {@code action} if the lock can be had within the default wait time; empty when it stayed busy. */
    public <T> Mono<T> tryExecute(String name, Function<LockLease, ? extends Publisher<? extends T>> action) {
        return tryExecute(name, this.defaults.waitTime(), action);
    }

    /** Like {@link #tryExecute(String, Function)} with an explicit wait time (zero: one attempt). */
    public <T> Mono<T> tryExecute(String name, Duration waitTime,
            Function<LockLease, ? extends Publisher<? extends T>> action) {
        return Mono.defer(() -> {
            boolean[] entered = new boolean[1];
            return execute(this.defaults.client().getLock(name), waitTime, this.defaults.leaseTime(), (lease) -> {
                entered[0] = true;
                return action.apply(lease);
            }).onErrorResume(LockNotAcquiredException.class, (ex) -> entered[0] ? Mono.error(ex) : Mono.empty());
        });
    }

    private <T> Flux<T> hold(RedisLock lock, Duration waitTime, @Nullable Duration leaseTime,
            Function<LockLease, ? extends Publisher<? extends T>> action) {
        Objects.requireNonNull(action, "action must not be null");
        ReactiveLock reactive = ReactiveLock.of(lock);
        return Flux.deferContextual((context) -> {
            LockLease outer = ContextLeases.held(context, lock);
            if (outer != null) {
                return reenter(outer, action);
            }
            return Flux.usingWhen(reactive.acquire(waitTime, leaseTime),
                    (lease) -> Flux.<T>from(guarded(lease, action))
                        .contextWrite((inner) -> ContextLeases.with(inner, lock, lease)),
                    this::releaseAfterCompletion, this::releaseAfterError, this::releaseAfterCancel)
                .onErrorMap(ReactiveLockTemplate::isWrappedLoss, Throwable::getCause);
        });
    }

    /** Reactor wraps a failed cleanup after completion in a plain RuntimeException; the caller wants the loss. */
    private static boolean isWrappedLoss(Throwable failure) {
        return failure.getClass() == RuntimeException.class && failure.getCause() instanceof LockLostException;
    }

    private static <T> Flux<T> reenter(LockLease outer, Function<LockLease, ? extends Publisher<? extends T>> action) {
        if (!outer.isHeld()) {
            return Flux.error(new LockLostException(outer.name(), outer.fencingToken(),
                    "a nested section found the enclosing lease lost; reentry never recreates it"));
        }
        return Flux.from(action.apply(outer));
    }

    private <T> Publisher<? extends T> guarded(LockLease lease,
            Function<LockLease, ? extends Publisher<? extends T>> action) {
        Publisher<? extends T> work = action.apply(lease);
        if (this.defaults.lostLeasePolicy() != LostLeasePolicy.INTERRUPT) {
            return work;
        }
        Sinks.Empty<Void> lost = Sinks.empty();
        lease.addLossListener((loss) -> lost.tryEmitEmpty());
        // Cancels the work at the moment of loss; the release then reports the loss as LockLostException.
        return Flux.from(work).takeUntilOther(lost.asMono());
    }

    private Mono<Void> releaseAfterCompletion(LockLease lease) {
        return ReactiveLock.release(lease).onErrorResume(LockLostException.class,
                (ex) -> (this.defaults.lostLeasePolicy() == LostLeasePolicy.IGNORE) ? Mono.empty() : Mono.error(ex));
    }

    private Mono<Void> releaseAfterError(LockLease lease, Throwable failure) {
        return ReactiveLock.release(lease).onErrorResume(RuntimeException.class, (ex) -> {
            failure.addSuppressed(ex);
            return Mono.empty();
        });
    }

    private Mono<Void> releaseAfterCancel(LockLease lease) {
        return ReactiveLock.release(lease).onErrorResume(RuntimeException.class, (ex) -> {
            logger.debug("Releasing lock '{}' after a cancel: {}", lease.name(), ex.getMessage());
            return Mono.empty();
        });
    }

    private RedisLock lockNamed(String name) {
        return this.defaults.client().getLock(name);
    }
}
