package dev.distlock.spring.aop;

import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import dev.distlock.core.RedisLock;
import dev.distlock.core.RedLockClient;
import dev.distlock.core.RedisLockClient;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.BeanReference;
import org.springframework.expression.spel.ast.CompoundExpression;
import org.springframework.expression.spel.ast.ConstructorReference;
import org.springframework.expression.spel.ast.FunctionReference;
import org.springframework.expression.spel.ast.Indexer;
import org.springframework.expression.spel.ast.MethodReference;
import org.springframework.expression.spel.ast.Projection;
import org.springframework.expression.spel.ast.PropertyOrFieldReference;
import org.springframework.expression.spel.ast.Selection;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.StringUtils;

/**
 * Turns a {@link LockOperation} and a call into the lock to take: parses and checks key expressions once, evaluates
 * them per call, composes the lock names and asks the right client for the lock of the declared type. The one place
 * that knows how a {@code @DistributedLock} maps to locks.
 */
final class LockResolver {

    private static final Pattern INDEX_VARIABLE = Pattern.compile("[pa](\\d+)");

    /** Properties of {@link LockExpressionRoot}, readable without {@code #root.}. */
    private static final List<String> ROOT_PROPERTIES = List.of("method", "methodName", "args", "target",
            "targetClass");

    private final SpelExpressionParser parser = new SpelExpressionParser();

    private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

    private final BeanFactory beanFactory;

    private final BeanFactoryResolver beanResolver;

    LockResolver(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
        this.beanResolver = new BeanFactoryResolver(beanFactory);
    }

    /**
     * Parses a key expression and checks that every variable it reads is a parameter of {@code method} (by name or
     * index) or {@code #root}/{@code #this}, and every bean it references exists.
     *
     * @throws IllegalArgumentException with the reason (the caller adds where the expression was found)
     */
    Expression parseKey(String source, Method method) {
        Expression expression;
        try {
            expression = this.parser.parseExpression(source);
        }
        catch (ParseException ex) {
            throw new IllegalArgumentException("it is not a valid SpEL expression: " + ex.getMessage(), ex);
        }
        if (expression instanceof SpelExpression spel) {
            List<String> problems = new ArrayList<>();
            check(spel.getAST(), true, method, problems);
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException(String.join("; ", problems));
            }
        }
        return expression;
    }

    /**
     * Walks the expression tree. {@code onRoot} tells whether a property name at this node is read from the root
     * object (top level, or a method argument) rather than from the result of a navigation, a selection or an index.
     */
    private void check(SpelNode node, boolean onRoot, Method method, List<String> problems) {
        if (node instanceof VariableReference) {
            String variable = node.toStringAST().substring(1);
            String problem = checkVariable(variable, method);
            if (problem != null) {
                problems.add(problem);
            }
        }
        else if (node instanceof BeanReference) {
            String bean = beanName(node.toStringAST());
            if (!this.beanFactory.containsBean(bean)) {
                problems.add("it references bean '" + bean + "', but there is no bean with that name");
            }
        }
        else if (node instanceof PropertyOrFieldReference property && onRoot
                && !ROOT_PROPERTIES.contains(property.getName())) {
            problems.add("'" + property.getName() + "' reads a property of #root, which only has "
                    + String.join(", ", ROOT_PROPERTIES) + ": for a fixed lock name use name = \""
                    + property.getName() + "\", for a string literal quote it: key = \"'" + property.getName()
                    + "'\", for a parameter write #" + property.getName());
        }
        for (int i = 0; i < node.getChildCount(); i++) {
            check(node.getChild(i), childOnRoot(node, i, onRoot), method, problems);
        }
    }

    private static boolean childOnRoot(SpelNode parent, int index, boolean onRoot) {
        if (parent instanceof CompoundExpression) {
            return index == 0 && onRoot;
        }
        if (parent instanceof MethodReference || parent instanceof FunctionReference
                || parent instanceof ConstructorReference) {
            return true;
        }
        if (parent instanceof Selection || parent instanceof Projection || parent instanceof Indexer) {
            return false;
        }
        return onRoot;
    }

    private @Nullable String checkVariable(String variable, Method method) {
        if (variable.equals("root") || variable.equals("this")) {
            return null;
        }
        int count = method.getParameterCount();
        var index = INDEX_VARIABLE.matcher(variable);
        if (index.matches()) {
            int position = Integer.parseInt(index.group(1));
            return (position < count) ? null : "#" + variable + " is out of range: the method has " + count
                    + " parameter" + ((count == 1) ? "" : "s");
        }
        @Nullable String[] names = this.parameterNames.getParameterNames(method);
        if (names == null) {
            return "#" + variable + " needs parameter names, which are not available for this method: compile with"
                    + " '-parameters' or refer to parameters by index (#p0, #a0)";
        }
        Set<String> known = new LinkedHashSet<>();
        for (String name : names) {
            if (name != null) {
                known.add(name);
            }
        }
        return known.contains(variable) ? null : "#" + variable + " is not a parameter of the method (parameters: "
                + (known.isEmpty() ? "none" : String.join(", ", known)) + "; also #p0/#a0 by index and #root)";
    }

    private static String beanName(String ast) {
        String name = ast.startsWith("@") ? ast.substring(1) : ast;
        if (name.length() > 1 && name.startsWith("'") && name.endsWith("'")) {
            name = name.substring(1, name.length() - 1);
        }
        return name;
    }

    /**
     * The lock for one call.
     *
     * @param client the client of every type but {@link LockType#REDLOCK}
     * @param redLockClient the client of {@link LockType#REDLOCK}, looked up only for that type
     * @throws IllegalArgumentException if a key evaluates to null or blank, or cannot be evaluated, or the resulting
     * lock name is invalid; nothing has been sent to Redis
     */
    RedisLock resolve(LockOperation operation, @Nullable Object[] args, Object target, RedisLockClient client,
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

    /** The lock name of a single-key call: {@code name:key}, {@code name} or {@code key}. */
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

    private static String qualified(LockOperation operation, String key) {
        return operation.name().isEmpty() ? key : operation.name() + ":" + key;
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
