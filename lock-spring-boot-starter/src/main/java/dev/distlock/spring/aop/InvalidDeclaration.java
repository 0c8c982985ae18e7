package dev.distlock.spring.aop;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.stream.Collectors;

import dev.distlock.spring.annotation.DistributedLock;
import org.jspecify.annotations.Nullable;

/**
 * Builds the startup errors for one {@link DistributedLock @DistributedLock} declaration, each naming the class,
 * method, attribute and value, so every check words its failure the same way.
 *
 * @param description {@code Class.method(ParamTypes)} of the declaration
 */
record InvalidDeclaration(String description) {

    /** The error builder for {@code method} as called on {@code targetClass}. */
    static InvalidDeclaration of(Method method, Class<?> targetClass) {
        return new InvalidDeclaration(describe(method, targetClass));
    }

    /** {@code Class.method(ParamTypes)} for messages. */
    static String describe(Method method, Class<?> targetClass) {
        return targetClass.getName() + "." + method.getName() + "(" + parameterList(method.getParameterTypes()) + ")";
    }

    /** The simple names of {@code types}, comma separated. */
    static String parameterList(Class<?>[] types) {
        return Arrays.stream(types).map(Class::getSimpleName).collect(Collectors.joining(", "));
    }

    IllegalStateException because(String attribute, String value, @Nullable String reason) {
        return because(attribute, value, reason, null);
    }

    IllegalStateException because(String attribute, String value, @Nullable String reason,
            @Nullable Throwable cause) {
        return new IllegalStateException("Invalid @DistributedLock on " + this.description + ": " + attribute
                + " = \"" + value + "\": " + reason, cause);
    }
}
