package dev.distlock.spring.aop;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.RedLockClient;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.MethodClassKey;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.env.PropertyResolver;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * Finds {@link DistributedLock @DistributedLock} declarations (directly or through composed annotations, on the
 * method, an overridden method or an interface method) and turns each into a validated, cached {@link LockOperation}
 * per method and target class, the way Spring's cache abstraction caches its operations: expressions are parsed and
 * durations resolved once.
 *
 * <p>Every problem is reported as an {@link IllegalStateException} naming the class, method, attribute and value.
 */
public final class LockOperationSource {

    private final Map<MethodClassKey, Optional<LockOperation>> cache = new ConcurrentHashMap<>(256);

    private final LockResolver resolver;

    private final PropertyResolver placeholders;

    private final BeanFactory beanFactory;

    /**
     * @param beanFactory resolves {@code @bean} references in key expressions, and tells whether a
     * {@link RedLockClient} is defined for {@link LockType#REDLOCK} declarations
     * @param placeholders resolves {@code ${...}} in wait and lease times (the application's
     * {@link org.springframework.core.env.Environment})
     */
    public LockOperationSource(BeanFactory beanFactory, PropertyResolver placeholders) {
        this.resolver = new LockResolver(beanFactory);
        this.placeholders = placeholders;
        this.beanFactory = beanFactory;
    }

    /**
     * Validates every {@code @DistributedLock} method of {@code targetClass}.
     *
     * @throws IllegalStateException naming the class, method, attribute and value of the first invalid declaration
     */
    public void validate(Class<?> targetClass) {
        if (!AnnotationUtils.isCandidateClass(targetClass, DistributedLock.class)) {
            return;
        }
        ReflectionUtils.doWithMethods(targetClass, (method) -> {
            throw new IllegalStateException("Invalid @DistributedLock on " + describe(method, targetClass)
                    + ": the method is " + unproxyable(method) + ", so no proxy can intercept it and the lock would"
                    + " never be taken; make it a non-final instance method that is not private");
        }, (method) -> !method.isBridge() && !unproxyable(method).isEmpty()
                && AnnotatedElementUtils.hasAnnotation(method, DistributedLock.class));
        Map<Method, Boolean> annotated = MethodIntrospector.selectMethods(targetClass,
                (MethodIntrospector.MetadataLookup<Boolean>) (method) -> hasAnnotation(method, targetClass)
                        ? Boolean.TRUE : null);
        annotated.keySet().forEach((method) -> getOperation(method, targetClass));
    }

    /** Whether {@code method}, called on {@code targetClass}, carries {@code @DistributedLock}. Never throws. */
    boolean hasAnnotation(Method method, Class<?> targetClass) {
        MethodClassKey cacheKey = new MethodClassKey(method, targetClass);
        Optional<LockOperation> cached = this.cache.get(cacheKey);
        if (cached != null) {
            return cached.isPresent();
        }
        if (findAnnotation(method, targetClass) == null) {
            this.cache.putIfAbsent(cacheKey, Optional.empty());
            return false;
        }
        return true;
    }

    LockResolver resolver() {
        return this.resolver;
    }

    /**
     * The operation for {@code method} called on {@code targetClass}, or null if the method is not annotated.
     *
     * @throws IllegalStateException if the declaration is invalid
     */
    @Nullable LockOperation getOperation(Method method, Class<?> targetClass) {
        MethodClassKey cacheKey = new MethodClassKey(method, targetClass);
        Optional<LockOperation> cached = this.cache.get(cacheKey);
        if (cached == null) {
            DistributedLock annotation = findAnnotation(method, targetClass);
            cached = (annotation != null)
                    ? Optional.of(build(AopUtils.getMostSpecificMethod(method, targetClass), targetClass, annotation))
                    : Optional.empty();
            this.cache.put(cacheKey, cached);
        }
        return cached.orElse(null);
    }

    private static @Nullable DistributedLock findAnnotation(Method method, Class<?> targetClass) {
        if (Modifier.isStatic(method.getModifiers()) || method.getDeclaringClass() == Object.class) {
            return null;
        }
        Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
        DistributedLock found = AnnotatedElementUtils.findMergedAnnotation(specific, DistributedLock.class);
        if (found == null && specific != method) {
            found = AnnotatedElementUtils.findMergedAnnotation(method, DistributedLock.class);
        }
        return found;
    }

    private LockOperation build(Method method, Class<?> targetClass, DistributedLock annotation) {
        String description = describe(method, targetClass);
        Invalid invalid = new Invalid(description);
        String name = annotation.name().trim();
        String keySource = annotation.key().trim();
        String[] multiKeys = annotation.keys();
        boolean multiKey = multiKeys.length > 0;
        LockType type = annotation.type();
        if (multiKey && !keySource.isEmpty()) {
            throw invalid.because("keys", Arrays.toString(multiKeys), "key = \"" + keySource + "\" is set too, but"
                    + " key and keys are mutually exclusive: use key for one lock, keys for a multi-key lock");
        }
        if (multiKey && type != LockType.REENTRANT) {
            throw invalid.because("type", type.name(), "a multi-key lock (keys = " + Arrays.toString(multiKeys)
                    + ") is only supported with type = REENTRANT; use key for a single " + type + " lock");
        }
        if (name.isEmpty() && keySource.isEmpty() && !multiKey) {
            throw invalid.because("name", annotation.name(), "key is empty too, and at least one must be set: name"
                    + " for a fixed lock name, key for a SpEL expression such as \"#order.id\", or both (the name then"
                    + " prefixes the key)");
        }
        if (type == LockType.REDLOCK && !redLockAvailable()) {
            throw invalid.because("type", type.name(), "RedLock needs independent Redis masters, but none are"
                    + " configured: set distributed-lock.redlock.nodes to at least 3 redis:// URIs (or define a "
                    + RedLockClient.class.getSimpleName() + " bean)");
        }
        List<LockOperation.Key> keys = new ArrayList<>();
        if (!keySource.isEmpty()) {
            keys.add(parseKey(keySource, "key", annotation.key(), method, invalid));
        }
        for (int i = 0; i < multiKeys.length; i++) {
            String attribute = "keys[" + i + "]";
            if (!StringUtils.hasText(multiKeys[i])) {
                throw invalid.because(attribute, multiKeys[i], "a key expression must not be empty");
            }
            keys.add(parseKey(multiKeys[i].trim(), attribute, multiKeys[i], method, invalid));
        }
        Duration waitTime = duration(annotation.waitTime(), "waitTime", false, invalid);
        Duration leaseTime = duration(annotation.leaseTime(), "leaseTime", true, invalid);
        Class<?> returnType = method.getReturnType();
        String refusal = ReturnKind.refusal(returnType);
        if (refusal != null) {
            throw invalid.because("return type", returnType.getName(), refusal);
        }
        ReturnKind returnKind = ReturnKind.of(returnType);
        OnNotAcquired onNotAcquired = annotation.onNotAcquired();
        String fallbackName = annotation.fallback().trim();
        Method fallback = null;
        boolean fallbackTakesException = false;
        if (onNotAcquired == OnNotAcquired.FALLBACK) {
            if (fallbackName.isEmpty()) {
                throw invalid.because("fallback", annotation.fallback(),
                        "onNotAcquired = FALLBACK needs the name of a fallback method");
            }
            fallback = findFallback(method, targetClass, fallbackName, true);
            fallbackTakesException = (fallback != null);
            if (fallback == null) {
                fallback = findFallback(method, targetClass, fallbackName, false);
            }
            if (fallback == null) {
                throw invalid.because("fallback", fallbackName, "no method " + fallbackName + "("
                        + parameterList(method.getParameterTypes()) + ") (optionally with a trailing "
                        + LockNotAcquiredException.class.getSimpleName() + " parameter) is declared by "
                        + targetClass.getName());
            }
            if (!returnTypeFits(method, fallback, targetClass)) {
                throw invalid.because("fallback", fallbackName, "its return type "
                        + fallback.getGenericReturnType().getTypeName() + " is not assignable to "
                        + method.getGenericReturnType().getTypeName());
            }
            ReflectionUtils.makeAccessible(fallback);
        }
        else if (!fallbackName.isEmpty()) {
            throw invalid.because("fallback", fallbackName, "a fallback is only called with onNotAcquired = FALLBACK,"
                    + " but onNotAcquired is " + onNotAcquired);
        }
        if (onNotAcquired == OnNotAcquired.SKIP && returnType.isPrimitive() && returnType != void.class) {
            throw invalid.because("onNotAcquired", "SKIP", "the method returns " + returnType.getName()
                    + ", which has no empty value: return a wrapper or Optional, or use FALLBACK");
        }
        String declaration = name.isEmpty() ? ClassUtils.getShortName(targetClass) + "." + method.getName() : name;
        return new LockOperation(method, targetClass, description, declaration, type, name, List.copyOf(keys),
                multiKey, waitTime, leaseTime, onNotAcquired, fallback, fallbackTakesException,
                returnType == Optional.class, returnKind);
    }

    private LockOperation.Key parseKey(String source, String attribute, String written, Method method,
            Invalid invalid) {
        try {
            return new LockOperation.Key(this.resolver.parseKey(source, method), source);
        }
        catch (IllegalArgumentException ex) {
            throw invalid.because(attribute, written, ex.getMessage(), ex);
        }
    }

    /** Whether a {@link RedLockClient} bean is defined (by {@code distributed-lock.redlock.nodes} or by the user). */
    private boolean redLockAvailable() {
        if (!(this.beanFactory instanceof ListableBeanFactory listable)) {
            return true; // cannot tell here: the first call fails instead
        }
        return BeanFactoryUtils.beanNamesForTypeIncludingAncestors(listable, RedLockClient.class, true,
                false).length > 0;
    }

    private @Nullable Duration duration(String value, String attribute, boolean lease, Invalid invalid) {
        if (value.isBlank()) {
            return null;
        }
        String resolved;
        try {
            resolved = this.placeholders.resolveRequiredPlaceholders(value).trim();
        }
        catch (IllegalArgumentException ex) {
            throw invalid.because(attribute, value, ex.getMessage(), ex);
        }
        if (resolved.isEmpty()) {
            return null;
        }
        Duration duration;
        try {
            duration = DurationStyle.detectAndParse(resolved);
        }
        catch (IllegalArgumentException | DateTimeParseException | ArithmeticException ex) {
            throw invalid.because(attribute, value, "it is not a duration" + resolvedFrom(value, resolved)
                    + "; use for example \"2s\", \"500ms\", \"PT2S\" or \"0\"", ex);
        }
        if (duration.isNegative()) {
            throw invalid.because(attribute, value, "it must not be negative" + resolvedFrom(value, resolved));
        }
        if (lease && duration.isZero()) {
            throw invalid.because(attribute, value, "a lease must be positive" + resolvedFrom(value, resolved)
                    + "; leave leaseTime empty for a watchdog-renewed lease");
        }
        if (lease && duration.compareTo(LockClientOptions.MIN_LEASE_TIME) < 0) {
            throw invalid.because(attribute, value, "it is shorter than the minimum lease of "
                    + LockClientOptions.MIN_LEASE_TIME.toMillis() + " ms" + resolvedFrom(value, resolved)
                    + "; a lease must outlast clock drift and a round trip to Redis");
        }
        if (lease && duration.compareTo(LockClientOptions.MAX_LEASE_TIME) > 0) {
            throw invalid.because(attribute, value, "it is longer than " + LockClientOptions.MAX_LEASE_TIME.toDays()
                    + " days" + resolvedFrom(value, resolved) + "; leave leaseTime empty for a watchdog-renewed lease");
        }
        return duration;
    }

    private static String resolvedFrom(String value, String resolved) {
        return value.equals(resolved) ? "" : " (it resolved to \"" + resolved + "\")";
    }

    private static @Nullable Method findFallback(Method method, Class<?> targetClass, String name,
            boolean withException) {
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

    private static String unproxyable(Method method) {
        int modifiers = method.getModifiers();
        return Modifier.isStatic(modifiers) ? "static" : Modifier.isPrivate(modifiers) ? "private"
                : Modifier.isFinal(modifiers) ? "final" : "";
    }

    private static String describe(Method method, Class<?> targetClass) {
        return targetClass.getName() + "." + method.getName() + "(" + parameterList(method.getParameterTypes()) + ")";
    }

    private static String parameterList(Class<?>[] types) {
        return Arrays.stream(types).map(Class::getSimpleName).collect(Collectors.joining(", "));
    }

    /** Builds the startup error for one declaration. */
    private record Invalid(String description) {

        IllegalStateException because(String attribute, String value, @Nullable String reason) {
            return because(attribute, value, reason, null);
        }

        IllegalStateException because(String attribute, String value, @Nullable String reason,
                @Nullable Throwable cause) {
            return new IllegalStateException("Invalid @DistributedLock on " + this.description + ": " + attribute
                    + " = \"" + value + "\": " + reason, cause);
        }
    }
}
