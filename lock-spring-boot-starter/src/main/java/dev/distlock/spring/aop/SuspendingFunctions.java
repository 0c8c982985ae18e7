package dev.distlock.spring.aop;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

import dev.distlock.spring.annotation.OnNotAcquired;
import org.jspecify.annotations.Nullable;

import org.springframework.core.KotlinDetector;
import org.springframework.util.ClassUtils;

/**
 * Kotlin {@code suspend fun}s among annotated methods. Spring's AOP calls a suspending method as a {@code Mono} of its
 * result (through kotlinx-coroutines-reactor) and awaits that {@code Mono} in the caller's coroutine, so the advice
 * sees a {@code Mono} and locks it as one: the lock is held until the coroutine's work completes, fails or is
 * cancelled, not until the method's first suspension. Without Kotlin on the class path nothing here is called.
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

    /** Why a suspending method declared with {@code onNotAcquired} cannot be locked here, or null if it can. */
    static @Nullable String refusal(OnNotAcquired onNotAcquired) {
        if (!COROUTINES_REACTOR_PRESENT) {
            return "a suspend fun is locked as the Mono that Spring adapts it to, which needs"
                    + " org.jetbrains.kotlinx:kotlinx-coroutines-reactor on the class path (dev.distlock:lock-kotlin"
                    + " brings it): without it the lock would be released at the first suspension";
        }
        if (onNotAcquired == OnNotAcquired.FALLBACK) {
            return "FALLBACK is not supported on a suspend fun yet: use SKIP (the call returns null) or THROW and"
                    + " catch LockNotAcquiredException in the caller";
        }
        return null;
    }
}
