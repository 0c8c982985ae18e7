package dev.distlock.spring.aop;

import java.lang.reflect.Method;

import dev.distlock.spring.annotation.DistributedLock;
import org.jspecify.annotations.Nullable;

/**
 * The {@code #root} object of a {@link DistributedLock#key() @DistributedLock key} expression:
 * {@code #root.method}, {@code #root.methodName}, {@code #root.args}, {@code #root.target},
 * {@code #root.targetClass}. Public only so SpEL can read its properties.
 */
public final class LockExpressionRoot {

    private final Method method;

    private final @Nullable Object[] args;

    private final Object target;

    private final Class<?> targetClass;

    LockExpressionRoot(Method method, @Nullable Object[] args, Object target, Class<?> targetClass) {
        this.method = method;
        this.args = args;
        this.target = target;
        this.targetClass = targetClass;
    }

    /** The invoked method (the most specific one on the target class). */
    public Method getMethod() {
        return this.method;
    }

    /** The invoked method's name. */
    public String getMethodName() {
        return this.method.getName();
    }

    /** The call's arguments. */
    public @Nullable Object[] getArgs() {
        return this.args;
    }

    /** The target object (the bean behind the proxy). */
    public Object getTarget() {
        return this.target;
    }

    /** The target object's class. */
    public Class<?> getTargetClass() {
        return this.targetClass;
    }
}
