package dev.distlock.spring.aop;

import java.util.function.Supplier;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.LockTemplate;
import dev.distlock.core.reactive.ReactiveLockTemplate;
import dev.distlock.spring.annotation.LockAdviceListener.Outcome;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Runs a method returning {@code Mono} or {@code Flux} under its lock through {@link ReactiveLockTemplate}: for every
 * subscription, the lock is acquired without a waiting thread, the method is called (so even work it does while
 * assembling its publisher runs locked), its publisher is subscribed, and the lock is released exactly once at the
 * terminal signal or cancel. Only loaded when Reactor is on the classpath.
 */
final class ReactiveLockedCall {

    private ReactiveLockedCall() {
    }

    static Object run(LockedCall call, LockTemplate template, Supplier<AdviceAttempt> attempts) {
        ReactiveLockTemplate reactive = new ReactiveLockTemplate(template);
        if (call.operation().returnKind() == ReturnKind.MONO) {
            return Mono.defer(() -> {
                AdviceAttempt attempt = attempts.get();
                return reactive.<Object>execute(call.lock(), call.waitTime(), call.leaseTime(),
                        (lease) -> work(call, attempt, lease))
                    .onErrorResume((ex) -> Mono.from(otherwise(call, attempt, ex)));
            });
        }
        return Flux.defer(() -> {
            AdviceAttempt attempt = attempts.get();
            return reactive.<Object>executeMany(call.lock(), call.waitTime(), call.leaseTime(),
                    (lease) -> work(call, attempt, lease))
                .onErrorResume((ex) -> Flux.from(otherwise(call, attempt, ex)));
        });
    }

    @SuppressWarnings("unchecked")
    private static Publisher<Object> work(LockedCall call, AdviceAttempt attempt, LockLease lease) {
        attempt.acquired(lease);
        Object publisher;
        try {
            publisher = call.proceedCopyHolding(lease);
        }
        catch (Throwable ex) {
            return Mono.error(ex);
        }
        return (publisher != null) ? (Publisher<Object>) publisher : Mono.empty();
    }

    /** Errors before the method was entered: not acquired (SKIP/FALLBACK/THROW) or a failed acquisition. */
    @SuppressWarnings("unchecked")
    private static Publisher<Object> otherwise(LockedCall call, AdviceAttempt attempt, Throwable ex) {
        if (attempt.entered()) {
            return Mono.error(ex);
        }
        if (!(ex instanceof LockNotAcquiredException notAcquired)) {
            attempt.finished(Outcome.FAILED);
            return Mono.error(ex);
        }
        attempt.finished(Outcome.NOT_ACQUIRED);
        Object empty = (call.operation().returnKind() == ReturnKind.MONO) ? Mono.empty() : Flux.empty();
        try {
            @Nullable Object replacement = call.notAcquired(notAcquired, empty, attempt);
            return (replacement != null) ? (Publisher<Object>) replacement : Mono.empty();
        }
        catch (Throwable failure) {
            return Mono.error(failure);
        }
    }
}
