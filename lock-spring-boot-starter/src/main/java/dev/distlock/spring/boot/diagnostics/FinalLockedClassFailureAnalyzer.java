package dev.distlock.spring.boot.diagnostics;

import java.lang.reflect.Method;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.distlock.spring.annotation.DistributedLock;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.AopConfigException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Reports a final class with {@code @DistributedLock} methods in the library's words. Such a class cannot be proxied,
 * and the proxy is created before the declarations are validated, so the start fails with CGLIB's "Cannot subclass
 * final class"; this analyzer recognises that failure for a class that declares locks and explains it.
 */
class FinalLockedClassFailureAnalyzer extends AbstractFailureAnalyzer<AopConfigException> {

    private static final Pattern FINAL_CLASS = Pattern.compile("Cannot subclass final class (\\S+)");

    @Override
    protected @Nullable FailureAnalysis analyze(Throwable rootFailure, AopConfigException cause) {
        Class<?> type = finalClass(cause);
        if (type == null) {
            return null;
        }
        Method locked = lockedMethod(type);
        if (locked == null) {
            return null;
        }
        return new FailureAnalysis(InvalidLockDeclarationFailureAnalyzer.MARKER + " on " + type.getSimpleName() + "."
                + locked.getName() + ": the class " + type.getName() + " is final, so no proxy can intercept its"
                + " methods and the lock would never be taken.", "Make " + type.getSimpleName() + " non-final (its"
                + " @DistributedLock methods too, and not private), or move the locked method to a class that is"
                + " not final.", cause);
    }

    private static @Nullable Class<?> finalClass(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            Matcher matcher = (cause.getMessage() != null) ? FINAL_CLASS.matcher(cause.getMessage()) : null;
            if (matcher != null && matcher.find()) {
                try {
                    return ClassUtils.forName(matcher.group(1), ClassUtils.getDefaultClassLoader());
                }
                catch (ClassNotFoundException | LinkageError ex) {
                    return null;
                }
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return null;
    }

    private static @Nullable Method lockedMethod(Class<?> type) {
        for (Method method : ReflectionUtils.getUniqueDeclaredMethods(type)) {
            if (AnnotatedElementUtils.hasAnnotation(method, DistributedLock.class)) {
                return method;
            }
        }
        return null;
    }
}
