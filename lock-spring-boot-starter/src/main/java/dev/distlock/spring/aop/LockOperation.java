package dev.distlock.spring.aop;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;

import dev.distlock.spring.annotation.DistributedLock;
import dev.distlock.spring.annotation.LockType;
import dev.distlock.spring.annotation.OnNotAcquired;
import org.jspecify.annotations.Nullable;

import org.springframework.expression.Expression;

/**
 * One validated {@link DistributedLock @DistributedLock} declaration, resolved for a method of a target class. Built
 * once by {@link LockOperationSource} and cached; immutable.
 *
 * @param method the most specific method on the target class (its parameter names feed the key expressions)
 * @param targetClass the bean class
 * @param description {@code Class.method(ParamTypes)} for messages
 * @param declaration the static name, or {@code ClassName.methodName} when it is empty: a bounded identifier for
 * metrics and listeners
 * @param type the kind of lock
 * @param name the static name or prefix, possibly empty
 * @param keys the parsed key expressions: none when the lock name is {@code name} alone, one for {@code key}, one or
 * more for {@code keys}
 * @param multiKey whether the declaration uses {@code keys} (a multi-key lock), even with a single expression
 * @param waitTime the wait time, or null for the template's default
 * @param leaseTime the fixed lease, or null for the template's default (a watchdog-renewed lease by default)
 * @param onNotAcquired what to do when the lock is not acquired, resolved (never {@link OnNotAcquired#DEFAULT})
 * @param fallback the fallback method for {@link OnNotAcquired#FALLBACK}, made accessible
 * @param fallbackTakesException whether the fallback's last parameter receives the not-acquired exception
 * @param returnsOptional whether the method returns {@code java.util.Optional} (what {@link OnNotAcquired#SKIP}
 * returns)
 * @param returnKind how the result tells when the work is done, which decides how long the lock is held
 * @param scheduled whether the method carries Spring's {@code @Scheduled}: skipped runs are logged and counted as
 * skipped scheduled runs
 * @param holdAtLeast the least time the lock is kept from its acquisition, or null to release on return
 */
record LockOperation(Method method, Class<?> targetClass, String description, String declaration, LockType type,
        String name, List<Key> keys, boolean multiKey, @Nullable Duration waitTime, @Nullable Duration leaseTime,
        OnNotAcquired onNotAcquired, @Nullable Method fallback, boolean fallbackTakesException,
        boolean returnsOptional, ReturnKind returnKind, boolean scheduled, @Nullable Duration holdAtLeast) {

    /**
     * One key expression.
     *
     * @param expression the parsed expression
     * @param source the expression as written, for messages
     */
    record Key(Expression expression, String source) {
    }
}
