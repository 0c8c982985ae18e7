package dev.distlock.spring.aop;

import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.StringJoiner;

import org.jspecify.annotations.Nullable;

import org.springframework.util.ReflectionUtils;

/**
 * Renders an evaluated key value as the text of a lock name, refusing values whose text identifies the instance
 * rather than its content: an object whose class does not override {@link Object#toString()} renders as
 * {@code Order@1b6d3586}, a different lock name per instance, so two calls for the same order would not exclude each
 * other. Strings, numbers, enums, records, {@code UUID} and every other class with its own {@code toString} are
 * accepted; arrays, collections and maps are accepted when their elements are.
 */
final class KeyText {

    private static final ClassValue<Boolean> OWN_TO_STRING = new ClassValue<>() {

        @Override
        protected Boolean computeValue(Class<?> type) {
            Method toString = ReflectionUtils.findMethod(type, "toString");
            return toString != null && toString.getDeclaringClass() != Object.class;
        }
    };

    private KeyText() {
    }

    /**
     * The text of {@code value}; arrays render like {@link java.util.Arrays#deepToString(Object[])}.
     *
     * @return the text, or null if {@code value} (or an element of it) has no content-based text
     */
    static @Nullable String of(Object value) {
        return contentBased(value) ? render(value) : null;
    }

    /** The first value inside {@code value} (itself included) that has no content-based text, or null if none. */
    static @Nullable Object identityRendered(@Nullable Object value) {
        if (value == null) {
            return null;
        }
        if (value.getClass().isArray()) {
            for (int i = 0; i < Array.getLength(value); i++) {
                Object found = identityRendered(Array.get(value, i));
                if (found != null) {
                    return found;
                }
            }
            return null;
        }
        if (value instanceof Iterable<?> iterable) {
            for (Object element : iterable) {
                Object found = identityRendered(element);
                if (found != null) {
                    return found;
                }
            }
            return null;
        }
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                Object found = identityRendered(entry.getKey());
                if (found == null) {
                    found = identityRendered(entry.getValue());
                }
                if (found != null) {
                    return found;
                }
            }
            return null;
        }
        return OWN_TO_STRING.get(value.getClass()) ? null : value;
    }

    private static boolean contentBased(Object value) {
        return identityRendered(value) == null;
    }

    private static String render(@Nullable Object value) {
        if (value == null || !value.getClass().isArray()) {
            return String.valueOf(value);
        }
        StringJoiner joined = new StringJoiner(", ", "[", "]");
        for (int i = 0; i < Array.getLength(value); i++) {
            joined.add(render(Array.get(value, i)));
        }
        return joined.toString();
    }

    /** Why {@code offender} cannot be a key, and what to write instead of {@code source}. */
    static String problem(Object offender, boolean element, String source) {
        String type = offender.getClass().getName();
        String example = element ? "#items.![id]" : source + ".id";
        return (element ? "evaluated to a collection, array or map with an element that is " : "evaluated to ")
                + (offender.getClass().isSynthetic() ? "a lambda or synthetic " : "a ") + type
                + " (rendered as '" + type.substring(type.lastIndexOf('.') + 1) + "@"
                + Integer.toHexString(System.identityHashCode(offender)) + "'), whose class does not override"
                + " toString(): every instance would give a different lock name and calls would not exclude each"
                + " other. Name a property that identifies it, e.g. '" + example + "', or give the class a"
                + " toString() based on its identity (records, enums, strings, numbers and UUIDs work as they are)";
    }
}
