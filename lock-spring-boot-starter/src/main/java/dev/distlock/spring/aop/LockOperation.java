package dev.distlock.spring.aop;

import java.lang.reflect.Method;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.expression.Expression;

/**
 * One validated {@link DistributedLock @DistributedLock} declaration, resolved for a method of a target class. Built
 * once by {@link LockOperationSource} and cached; immutable.
 *
 * @param method the most specific method on the target class (its parameter names feed the key expression)
 * @param targetClass the bean class
 * @param description {@code Class.method(ParamTypes)} for messages
 * @param name the static name or prefix, possibly empty
 * @param key the parsed key expression, or null when the lock name is {@code name} alone
 * @param keySource the key expression as written, for messages
 * @param waitTime the wait time, or null for the configured default
 * @param leaseTime the fixed lease, or null for a watchdog-renewed lease
 * @param onNotAcquired what to do when the lock is not acquired
 * @param fallback the fallback method for {@link OnNotAcquired#FALLBACK}, made accessible
 * @param fallbackTakesException whether the fallback's last parameter receives the not-acquired exception
 * @param returnsOptional whether the method returns {@code java.util.Optional} (what {@link OnNotAcquired#SKIP}
 * returns)
 */
record LockOperation(Method method, Class<?> targetClass, String description, String name,
        @Nullable Expression key, String keySource, @Nullable Duration waitTime, @Nullable Duration leaseTime,
        OnNotAcquired onNotAcquired, @Nullable Method fallback, boolean fallbackTakesException,
        boolean returnsOptional) {
}
