package dev.distlock.spring.aop;

import java.lang.reflect.Method;
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
 * {@link LockNotAcquiredException} parameter, whose return type fits the locked method's.
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
        Method fallback = find(method, targetClass, name, true);
        boolean takesException = (fallback != null);
        if (fallback == null) {
            fallback = find(method, targetClass, name, false);
        }
        if (fallback == null) {
            throw invalid.because("fallback", name, "no method " + name + "("
                    + InvalidDeclaration.parameterList(method.getParameterTypes()) + ") (optionally with a trailing "
                    + LockNotAcquiredException.class.getSimpleName() + " parameter) is declared by "
                    + targetClass.getName());
        }
        if (!returnTypeFits(method, fallback, targetClass)) {
            throw invalid.because("fallback", name, "its return type "
                    + fallback.getGenericReturnType().getTypeName() + " is not assignable to "
                    + method.getGenericReturnType().getTypeName());
        }
        ReflectionUtils.makeAccessible(fallback);
        return new Fallback(fallback, takesException);
    }

    private static @Nullable Method find(Method method, Class<?> targetClass, String name, boolean withException) {
        Class<?>[] expected = method.getParameterTypes();
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
                    && Arrays.equals(Arrays.copyOf(actual, expected.length), expected)
                    && actual[expected.length].isAssignableFrom(LockNotAcquiredException.class);
        });
        return found.isEmpty() ? null : found.get(0);
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

    /**
     * A found fallback.
     *
     * @param method the fallback method, made accessible
     * @param takesException whether its last parameter receives the not-acquired exception
     */
    record Fallback(Method method, boolean takesException) {
    }
}
