package dev.distlock.spring.aop;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;

import org.jspecify.annotations.Nullable;

/**
 * How an annotated method's result tells when its work is done, which decides how long its lock is held.
 */
enum ReturnKind {

    /** A plain value (or {@code void}): the work is done when the method returns. */
    VALUE,

    /** {@code CompletionStage} or {@code CompletableFuture}: the work is done when the stage completes. */
    COMPLETION_STAGE,

    /** Reactor {@code Mono}: the work runs on subscription and is done at its terminal signal or cancel. */
    MONO,

    /** Reactor {@code Flux}: the work runs on subscription and is done at its terminal signal or cancel. */
    FLUX;

    private static final String MONO_CLASS = "reactor.core.publisher.Mono";

    private static final String FLUX_CLASS = "reactor.core.publisher.Flux";

    /** The kind of {@code type}; see {@link #refusal(Class)} for types that are not supported. */
    static ReturnKind of(Class<?> type) {
        if (type.getName().equals(MONO_CLASS)) {
            return MONO;
        }
        if (type.getName().equals(FLUX_CLASS)) {
            return FLUX;
        }
        if (type == CompletionStage.class || type == CompletableFuture.class) {
            return COMPLETION_STAGE;
        }
        return VALUE;
    }

    /** Why a method returning {@code type} cannot be locked, or null if it can. */
    static @Nullable String refusal(Class<?> type) {
        if (of(type) != VALUE) {
            return null;
        }
        if (isPublisher(type)) {
            return "among reactive types only Reactor's Mono and Flux are supported: the lock would be released when"
                    + " the publisher is returned, before it does any work. Declare Mono or Flux (Flux.from(...)"
                    + " adapts any Publisher)";
        }
        if (CompletionStage.class.isAssignableFrom(type)) {
            return "declare CompletionStage or CompletableFuture as the return type: the lock is held until the"
                    + " returned stage completes, and the advice returns a CompletableFuture";
        }
        if (Future.class.isAssignableFrom(type)) {
            return "a Future that is not a CompletionStage cannot say when its work ends without blocking a thread,"
                    + " so the lock would be released when the Future is returned, before the work runs. Return"
                    + " CompletableFuture or CompletionStage (with @Async too), or Mono/Flux";
        }
        return null;
    }

    private static boolean isPublisher(Class<?> type) {
        for (Class<?> candidate = type; candidate != null; candidate = candidate.getSuperclass()) {
            if (implementsPublisher(candidate)) {
                return true;
            }
        }
        return false;
    }

    private static boolean implementsPublisher(Class<?> type) {
        if (type.getName().equals("org.reactivestreams.Publisher")
                || type.getName().equals("java.util.concurrent.Flow$Publisher")) {
            return true;
        }
        for (Class<?> implemented : type.getInterfaces()) {
            if (implementsPublisher(implemented)) {
                return true;
            }
        }
        return false;
    }
}
