package dev.distlock.spring.aop;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;

import kotlin.coroutines.Continuation;
import kotlin.coroutines.CoroutineContext;
import kotlinx.coroutines.Job;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;

import org.springframework.core.CoroutinesUtils;
import org.springframework.core.KotlinDetector;
import org.springframework.util.ClassUtils;

/**
 * Kotlin {@code suspend fun}s among annotated methods. Spring's AOP calls a suspending method as a {@code Mono} of its
 * result (through kotlinx-coroutines-reactor) and awaits that {@code Mono} in the caller's coroutine, so the advice
 * sees a {@code Mono} and locks it as one: the lock is held until the coroutine's work completes, fails or is
 * cancelled, not until the method's first suspension. Its fallback, a suspend fun too, is called the same way: as a
 * {@code Mono} that the caller awaits. Without Kotlin on the class path nothing here is called.
 */
final class SuspendingFunctions {

    /** What Spring's AOP needs to adapt a suspending method to a {@code Mono}. */
    private static final boolean COROUTINES_REACTOR_PRESENT = ClassUtils.isPresent("kotlinx.coroutines.reactor.MonoKt",
            SuspendingFunctions.class.getClassLoader());

    private SuspendingFunctions() {
    }

    /**
     * Whether {@code method} is the static {@code name$suspendImpl} body that Kotlin generates for an open suspend
     * fun, copying its annotations: the proxy intercepts the instance method, which delegates to it.
     */
    static boolean isSuspendImpl(Method method) {
        return Modifier.isStatic(method.getModifiers()) && method.getName().endsWith("$suspendImpl")
                && KotlinDetector.isKotlinPresent() && KotlinDetector.isKotlinType(method.getDeclaringClass());
    }

    static boolean isSuspending(Method method) {
        return KotlinDetector.isKotlinPresent() && KotlinDetector.isSuspendingFunction(method);
    }

    /** Why a suspending method cannot be locked here, or null if it can. */
    static @Nullable String refusal() {
        if (!COROUTINES_REACTOR_PRESENT) {
            return "a suspend fun is locked as the Mono that Spring adapts it to, which needs"
                    + " org.jetbrains.kotlinx:kotlinx-coroutines-reactor on the class path (dev.distlock:lock-kotlin"
                    + " brings it): without it the lock would be released at the first suspension";
        }
        return null;
    }

    /**
     * What a suspend fun returns to its caller: the type argument of its trailing {@code Continuation<? super T>}
     * parameter (the JVM signature returns {@code Object}).
     */
    static Type resultType(Method method) {
        Type continuation = method.getGenericParameterTypes()[method.getParameterCount() - 1];
        if (!(continuation instanceof ParameterizedType parameterized)) {
            return Object.class;
        }
        Type result = parameterized.getActualTypeArguments()[0];
        if (result instanceof WildcardType wildcard && wildcard.getLowerBounds().length == 1) {
            return wildcard.getLowerBounds()[0];
        }
        return result;
    }

    /**
     * Calls a suspend fun as a {@code Mono} of its result, as Spring's AOP calls the locked one: in the caller's
     * coroutine context without its {@code Job}.
     *
     * @param args the arguments, the caller's {@code Continuation} last
     */
    static Publisher<?> invoke(Method method, Object target, @Nullable Object[] args) {
        return Coroutines.invoke(method, target, args);
    }

    /** The code that names Kotlin's types, loaded only when a suspend fun is called. */
    private static final class Coroutines {

        static Publisher<?> invoke(Method method, Object target, @Nullable Object[] args) {
            Continuation<?> continuation = (Continuation<?>) args[args.length - 1];
            if (continuation == null) {
                throw new IllegalStateException("No Continuation to call the suspend fun " + method + " with");
            }
            CoroutineContext context = continuation.getContext().minusKey(Job.Key);
            return CoroutinesUtils.invokeSuspendingFunction(context, method, target, args);
        }
    }
}
