package dev.distlock.spring.aop;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.spring.annotation.DistributedLock;
import dev.distlock.spring.annotation.OnNotAcquired;
import org.jspecify.annotations.Nullable;

import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Finds and checks the fallback method of a {@link DistributedLock @DistributedLock} declaration with
 * {@link OnNotAcquired#FALLBACK}: a method of the target class with the same parameters, optionally followed by a
 * {@link LockNotAcquiredException} parameter, whose return type fits the locked method's. The fallback of a Kotlin
 * {@code suspend fun} is a {@code suspend fun} too, whose result type fits the locked one's; on the JVM its optional
 * exception parameter comes before the trailing {@code Continuation}.
 */
final class FallbackMethods {

    private FallbackMethods() {
    }

    /**
     * The fallback of a declaration, or null when {@code onNotAcquired} is not {@link OnNotAcquired#FALLBACK}.
     *
     * @param written the {@code fallback} attribute as written
     * @throws IllegalStateException if the fallback is missing, not found or has the wrong return type, or if a
     * fallback is named without {@link OnNotAcquired#FALLBACK}
     */
    static @Nullable Fallback resolve(OnNotAcquired onNotAcquired, String written, Method method,
            Class<?> targetClass, InvalidDeclaration invalid) {
        String name = written.trim();
        if (onNotAcquired != OnNotAcquired.FALLBACK) {
            if (!name.isEmpty()) {
                throw invalid.because("fallback", name, "a fallback is only called with onNotAcquired = FALLBACK,"
                        + " but onNotAcquired is " + onNotAcquired);
            }
            return null;
        }
        if (name.isEmpty()) {
            throw invalid.because("fallback", written, "onNotAcquired = FALLBACK needs the name of a fallback method");
        }
        boolean suspending = SuspendingFunctions.isSuspending(method);
        Method fallback = find(method, targetClass, name, true, suspending);
        boolean takesException = (fallback != null);
        if (fallback == null) {
            fallback = find(method, targetClass, name, false, suspending);
        }
        if (fallback == null) {
            throw invalid.because("fallback", name, "no " + (suspending ? "suspend fun " : "method ") + name + "("
                    + InvalidDeclaration.parameterList(sourceParameters(method, suspending)) + ") (optionally with a"
                    + " trailing " + LockNotAcquiredException.class.getSimpleName() + " parameter) is declared by "
                    + targetClass.getName()
                    + (suspending ? "; the fallback of a suspend fun must be a suspend fun too" : ""));
        }
        Type expected = suspending ? SuspendingFunctions.resultType(method) : method.getGenericReturnType();
        Type actual = suspending ? SuspendingFunctions.resultType(fallback) : fallback.getGenericReturnType();
        boolean fits = suspending ? resultTypeFits(expected, actual, targetClass)
                : returnTypeFits(method, fallback, targetClass);
        if (!fits) {
            throw invalid.because("fallback", name, "its return type " + actual.getTypeName()
                    + " is not assignable to " + expected.getTypeName());
        }
        ReflectionUtils.makeAccessible(fallback);
        return new Fallback(fallback, takesException);
    }

    /**
     * A fallback candidate: the locked method's parameters, with a {@link LockNotAcquiredException} parameter added
     * if {@code withException}, before the {@code Continuation} of a suspend fun, or else last.
     */
    private static @Nullable Method find(Method method, Class<?> targetClass, String name, boolean withException,
            boolean suspending) {
        Class<?>[] expected = method.getParameterTypes();
        int exceptionAt = suspending ? expected.length - 1 : expected.length;
        List<Method> found = new ArrayList<>();
        ReflectionUtils.doWithMethods(targetClass, found::add, (candidate) -> {
            if (!candidate.getName().equals(name) || candidate.isBridge() || candidate.isSynthetic()) {
                return false;
            }
            Class<?>[] actual = candidate.getParameterTypes();
            if (!withException) {
                return Arrays.equals(actual, expected);
            }
            return actual.length == expected.length + 1
                    && Arrays.equals(actual, 0, exceptionAt, expected, 0, exceptionAt)
                    && actual[exceptionAt].isAssignableFrom(LockNotAcquiredException.class)
                    && Arrays.equals(actual, exceptionAt + 1, actual.length, expected, exceptionAt, expected.length);
        });
        return found.isEmpty() ? null : found.get(0);
    }

    /** The parameters as the source declares them: a suspend fun's without its {@code Continuation}. */
    private static Class<?>[] sourceParameters(Method method, boolean suspending) {
        Class<?>[] parameters = method.getParameterTypes();
        return suspending ? Arrays.copyOf(parameters, parameters.length - 1) : parameters;
    }

    private static boolean returnTypeFits(Method method, Method fallback, Class<?> targetClass) {
        Class<?> expected = method.getReturnType();
        Class<?> actual = fallback.getReturnType();
        if (expected == void.class) {
            return true;
        }
        if (actual == void.class) {
            return false;
        }
        if (expected.isPrimitive() || actual.isPrimitive()) {
            return ClassUtils.isAssignable(expected, actual);
        }
        return ResolvableType.forMethodReturnType(method, targetClass)
            .isAssignableFrom(ResolvableType.forMethodReturnType(fallback, targetClass));
    }

    /** Whether a suspend fun's result fits the locked one's; any result does where that is {@code Unit}. */
    private static boolean resultTypeFits(Type expected, Type actual, Class<?> targetClass) {
        if (expected.getTypeName().equals("kotlin.Unit")) {
            return true;
        }
        ResolvableType owner = ResolvableType.forClass(targetClass);
        return ResolvableType.forType(expected, owner).isAssignableFrom(ResolvableType.forType(actual, owner));
    }

    /**
     * A found fallback.
     *
     * @param method the fallback method, made accessible
     * @param takesException whether it receives the not-acquired exception: as its last parameter, or a suspend fun's
     * last before the {@code Continuation}
     */
    record Fallback(Method method, boolean takesException) {
    }
}
