package dev.distlock.spring.aop;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.distlock.core.RedLockClient;
import dev.distlock.spring.annotation.DistributedLock;
import dev.distlock.spring.annotation.LockType;
import dev.distlock.spring.annotation.OnNotAcquired;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.core.MethodClassKey;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.env.PropertyResolver;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.annotation.Schedules;
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
 *
 * <p>Infrastructure, not API: public only so that the auto-configuration ({@code dev.distlock.spring.boot}) can declare
 * it as a bean that an application may replace; it may change in any release.
 */
public final class LockOperationSource {

    private final Map<MethodClassKey, Optional<LockOperation>> cache = new ConcurrentHashMap<>(256);

    private final LockResolver resolver;

    private final KeyExpressionChecker keyChecker;

    private final LockDurations durations;

    private final BeanFactory beanFactory;

    /**
     * @param beanFactory resolves {@code @bean} references in key expressions, and tells whether a
     * {@link RedLockClient} is defined for {@link LockType#REDLOCK} declarations
     * @param placeholders resolves {@code ${...}} in wait and lease times (the application's
     * {@link org.springframework.core.env.Environment})
     */
    public LockOperationSource(BeanFactory beanFactory, PropertyResolver placeholders) {
        this.resolver = new LockResolver(beanFactory);
        this.keyChecker = new KeyExpressionChecker(beanFactory);
        this.durations = new LockDurations(placeholders);
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
            throw new IllegalStateException("Invalid @DistributedLock on "
                    + InvalidDeclaration.describe(method, targetClass)
                    + ": the method is " + unproxyable(method) + ", so no proxy can intercept it and the lock would"
                    + " never be taken; make it a non-final instance method that is not private");
        }, (method) -> !method.isBridge() && !SuspendingFunctions.isSuspendImpl(method)
                && !unproxyable(method).isEmpty()
                && AnnotatedElementUtils.hasAnnotation(method, DistributedLock.class));
        Map<Method, Boolean> annotated = MethodIntrospector.selectMethods(targetClass,
                (MethodIntrospector.MetadataLookup<Boolean>) (method) -> !SuspendingFunctions.isSuspendImpl(method)
                        && hasAnnotation(method, targetClass)
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
        InvalidDeclaration invalid = InvalidDeclaration.of(method, targetClass);
        String name = annotation.name().trim();
        String keySource = annotation.key().trim();
        String[] multiKeys = annotation.keys();
        boolean multiKey = multiKeys.length > 0;
        LockType type = annotation.type();
        checkNameKeysAndType(annotation, invalid);
        List<LockOperation.Key> keys = parseKeys(keySource, annotation, method, invalid);
        boolean scheduled = isScheduled(method);
        Duration waitTime = this.durations.waitTime(annotation.waitTime(), invalid);
        if (waitTime == null && scheduled) {
            waitTime = Duration.ZERO; // a scheduled run that finds the job locked is skipped, never queued
        }
        Duration leaseTime = this.durations.leaseTime(annotation.leaseTime(), invalid);
        Class<?> returnType = method.getReturnType();
        String refusal = ReturnKind.refusal(returnType);
        if (refusal != null) {
            throw invalid.because("return type", returnType.getName(), refusal);
        }
        boolean suspending = SuspendingFunctions.isSuspending(method);
        if (suspending) {
            String suspendRefusal = SuspendingFunctions.refusal();
            if (suspendRefusal != null) {
                throw invalid.because("method", "suspend fun " + method.getName(), suspendRefusal);
            }
        }
        ReturnKind returnKind = suspending ? ReturnKind.MONO : ReturnKind.of(returnType);
        Duration holdAtLeast = holdAtLeast(annotation, leaseTime, returnKind, invalid);
        if (holdAtLeast != null && type == LockType.READ) {
            throw invalid.because("holdAtLeast", annotation.holdAtLeast(), "a read lock is shared, so keeping it does"
                    + " not stop another reader from running; use type = REENTRANT or WRITE");
        }
        OnNotAcquired onNotAcquired = annotation.onNotAcquired();
        if (onNotAcquired == OnNotAcquired.DEFAULT) {
            onNotAcquired = scheduled ? OnNotAcquired.SKIP : OnNotAcquired.THROW;
        }
        FallbackMethods.Fallback fallback = FallbackMethods.resolve(onNotAcquired, annotation.fallback(), method,
                targetClass, invalid);
        checkSkipHasAnEmptyValue(onNotAcquired, annotation, returnType, invalid);
        String declaration = name.isEmpty() ? ClassUtils.getShortName(targetClass) + "." + method.getName() : name;
        return new LockOperation(method, targetClass, invalid.description(), declaration, type, name,
                keys, multiKey, waitTime, leaseTime, onNotAcquired,
                (fallback != null) ? fallback.method() : null, fallback != null && fallback.takesException(),
                returnType == Optional.class, returnKind, scheduled, holdAtLeast);
    }

    /** The combinations of name, key, keys and type that cannot work, and a RedLock type without RedLock nodes. */
    private void checkNameKeysAndType(DistributedLock annotation, InvalidDeclaration invalid) {
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
        if (annotation.name().trim().isEmpty() && keySource.isEmpty() && !multiKey) {
            throw invalid.because("name", annotation.name(), "key is empty too, and at least one must be set: name"
                    + " for a fixed lock name, key for a SpEL expression such as \"#order.id\", or both (the name then"
                    + " prefixes the key)");
        }
        if (type == LockType.REDLOCK && !redLockAvailable()) {
            throw invalid.because("type", type.name(), "RedLock needs independent Redis masters, but none are"
                    + " configured: set distributed-lock.redlock.nodes to at least 3 redis:// URIs (or define a "
                    + RedLockClient.class.getSimpleName() + " bean)");
        }
    }

    /** SKIP returns the empty value of the method's type, which a primitive other than void does not have. */
    private static void checkSkipHasAnEmptyValue(OnNotAcquired onNotAcquired, DistributedLock annotation,
            Class<?> returnType, InvalidDeclaration invalid) {
        if (onNotAcquired == OnNotAcquired.SKIP && returnType.isPrimitive() && returnType != void.class) {
            String why = (annotation.onNotAcquired() == OnNotAcquired.DEFAULT)
                    ? " (the default for a @Scheduled method)" : "";
            throw invalid.because("onNotAcquired", "SKIP" + why, "the method returns " + returnType.getName()
                    + ", which has no empty value: return a wrapper or Optional, or use FALLBACK");
        }
    }

    private @Nullable Duration holdAtLeast(DistributedLock annotation, @Nullable Duration leaseTime,
            ReturnKind returnKind, InvalidDeclaration invalid) {
        Duration holdAtLeast = this.durations.holdAtLeast(annotation.holdAtLeast(), invalid);
        if (holdAtLeast == null) {
            return null;
        }
        if (returnKind != ReturnKind.VALUE) {
            throw invalid.because("holdAtLeast", annotation.holdAtLeast(), "it is only supported on methods that"
                    + " return a plain value, whose work is done when they return; remove it, or run the job"
                    + " synchronously");
        }
        if (leaseTime != null && holdAtLeast.compareTo(leaseTime) > 0) {
            throw invalid.because("holdAtLeast", annotation.holdAtLeast(), "it is longer than the fixed leaseTime = \""
                    + annotation.leaseTime() + "\", after which the lock expires anyway; shorten it, or leave"
                    + " leaseTime empty for a watchdog-renewed lease");
        }
        return holdAtLeast;
    }

    /** Whether Spring runs {@code method} on a schedule ({@code @Scheduled}, once or repeated). */
    private static boolean isScheduled(Method method) {
        return AnnotatedElementUtils.hasAnnotation(method, Scheduled.class)
                || AnnotatedElementUtils.hasAnnotation(method, Schedules.class);
    }

    /** The expressions of {@code key} (trimmed: {@code keySource}) and {@code keys}, parsed and checked. */
    private List<LockOperation.Key> parseKeys(String keySource, DistributedLock annotation, Method method,
            InvalidDeclaration invalid) {
        List<LockOperation.Key> keys = new ArrayList<>();
        if (!keySource.isEmpty()) {
            keys.add(parseKey(keySource, "key", annotation.key(), method, invalid));
        }
        String[] multiKeys = annotation.keys();
        for (int i = 0; i < multiKeys.length; i++) {
            String attribute = "keys[" + i + "]";
            if (!StringUtils.hasText(multiKeys[i])) {
                throw invalid.because(attribute, multiKeys[i], "a key expression must not be empty");
            }
            keys.add(parseKey(multiKeys[i].trim(), attribute, multiKeys[i], method, invalid));
        }
        return List.copyOf(keys);
    }

    private LockOperation.Key parseKey(String source, String attribute, String written, Method method,
            InvalidDeclaration invalid) {
        try {
            return new LockOperation.Key(this.keyChecker.parse(source, method), source);
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

    private static String unproxyable(Method method) {
        int modifiers = method.getModifiers();
        return Modifier.isStatic(modifiers) ? "static" : Modifier.isPrivate(modifiers) ? "private"
                : Modifier.isFinal(modifiers) ? "final" : "";
    }
}
