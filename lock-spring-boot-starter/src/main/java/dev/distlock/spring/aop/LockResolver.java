package dev.distlock.spring.aop;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

import dev.distlock.core.LockClient;
import dev.distlock.core.RedLockClient;
import dev.distlock.core.RedisLock;
import dev.distlock.spring.annotation.LockType;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.EvaluationException;
import org.springframework.util.StringUtils;

/**
 * Turns a {@link LockOperation} and a call into the lock to take: evaluates the key expressions (parsed and checked
 * at startup by {@link KeyExpressionChecker}), composes the lock names and asks the right client for the lock of the
 * declared type. The one place that knows how a {@code @DistributedLock} maps to locks.
 */
final class LockResolver {

    private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

    private final BeanFactoryResolver beanResolver;

    LockResolver(BeanFactory beanFactory) {
        this.beanResolver = new BeanFactoryResolver(beanFactory);
    }

    /**
     * The lock for one call.
     *
     * @param client the client of every type but {@link LockType#REDLOCK}
     * @param redLockClient the client of {@link LockType#REDLOCK}, looked up only for that type
     * @throws IllegalArgumentException if a key evaluates to null or blank, or cannot be evaluated, or the resulting
     * lock name is invalid; nothing has been sent to Redis
     */
    RedisLock resolve(LockOperation operation, @Nullable Object[] args, Object target, LockClient client,
            Supplier<RedLockClient> redLockClient) {
        if (operation.multiKey()) {
            return client.getMultiLock(lockNames(operation, args, target));
        }
        String name = lockName(operation, args, target);
        return switch (operation.type()) {
            case REENTRANT -> client.getLock(name);
            case FAIR -> client.getFairLock(name);
            case READ -> client.getReadWriteLock(name).readLock();
            case WRITE -> client.getReadWriteLock(name).writeLock();
            case REDLOCK -> redLockClient.get().getLock(name);
        };
    }

    /** The lock name of a single-key call: {@code name:key}, {@code name} or {@code ClassName.methodName:key}. */
    String lockName(LockOperation operation, @Nullable Object[] args, Object target) {
        if (operation.keys().isEmpty()) {
            return operation.name();
        }
        LockOperation.Key key = operation.keys().get(0);
        Object value = evaluate(key, operation, args, target);
        String text = text(value, key, operation, false);
        if (!StringUtils.hasText(text)) {
            throw new IllegalArgumentException(keyProblem(key, operation, "evaluated to a blank string"));
        }
        return qualified(operation, text);
    }

    /**
     * The lock names of a multi-key call: one per key, where an expression that evaluates to a collection or array
     * contributes each of its elements.
     */
    List<String> lockNames(LockOperation operation, @Nullable Object[] args, Object target) {
        List<String> names = new ArrayList<>();
        for (LockOperation.Key key : operation.keys()) {
            int before = names.size();
            addKeys(evaluate(key, operation, args, target), key, operation, names);
            if (names.size() == before) {
                throw new IllegalArgumentException(keyProblem(key, operation, "evaluated to no keys (an empty "
                        + "collection or array)"));
            }
        }
        return names;
    }

    private static void addKeys(Object value, LockOperation.Key key, LockOperation operation, List<String> names) {
        if (value instanceof Collection<?> collection) {
            int index = 0;
            for (Object element : collection) {
                addElement(element, index++, key, operation, names);
            }
        }
        else if (value.getClass().isArray()) {
            for (int index = 0; index < Array.getLength(value); index++) {
                addElement(Array.get(value, index), index, key, operation, names);
            }
        }
        else {
            String text = text(value, key, operation, false);
            if (!StringUtils.hasText(text)) {
                throw new IllegalArgumentException(keyProblem(key, operation, "evaluated to a blank string"));
            }
            names.add(qualified(operation, text));
        }
    }

    private static void addElement(@Nullable Object element, int index, LockOperation.Key key,
            LockOperation operation, List<String> names) {
        if (element == null) {
            throw new IllegalArgumentException(keyProblem(key, operation,
                    "evaluated to a collection or array whose element " + index + " is null"));
        }
        if (element instanceof Collection<?> || element.getClass().isArray()) {
            addKeys(element, key, operation, names);
            return;
        }
        String text = text(element, key, operation, true);
        if (!StringUtils.hasText(text)) {
            throw new IllegalArgumentException(keyProblem(key, operation,
                    "evaluated to a collection or array whose element " + index + " is blank"));
        }
        names.add(qualified(operation, text));
    }

    private static String text(Object value, LockOperation.Key key, LockOperation operation, boolean element) {
        String text = KeyText.of(value);
        if (text == null) {
            Object offender = Objects.requireNonNull(KeyText.identityRendered(value));
            String problem = KeyText.problem(offender, element || offender != value, key.source());
            throw new IllegalArgumentException(keyProblem(key, operation, problem));
        }
        return text;
    }

    /** {@code name:key}; without a name, the declaration's {@code ClassName.methodName} stands in for it. */
    private static String qualified(LockOperation operation, String key) {
        return operation.declaration() + ":" + key;
    }

    private Object evaluate(LockOperation.Key key, LockOperation operation, @Nullable Object[] args, Object target) {
        LockExpressionRoot root = new LockExpressionRoot(operation.method(), args, target, operation.targetClass());
        MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(root, operation.method(), args,
                this.parameterNames);
        context.setBeanResolver(this.beanResolver);
        Object value;
        try {
            value = key.expression().getValue(context);
        }
        catch (EvaluationException ex) {
            throw new IllegalArgumentException(keyProblem(key, operation, "could not be evaluated: "
                    + ex.getMessage()), ex);
        }
        if (value == null) {
            throw new IllegalArgumentException(keyProblem(key, operation, "evaluated to null"));
        }
        return value;
    }

    private static String keyProblem(LockOperation.Key key, LockOperation operation, String problem) {
        return "Lock key expression '" + key.source() + "' on " + operation.description() + " " + problem
                + "; the lock was not attempted and the method did not run";
    }
}
