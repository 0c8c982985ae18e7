package dev.distlock.spring.aop;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import dev.distlock.spring.annotation.DistributedLock;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
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

/**
 * Parses the key expressions of {@link DistributedLock @DistributedLock} at startup and walks their SpEL tree, so a
 * variable that is no parameter, a bean that does not exist or a bare word read from {@code #root} fails the
 * application start instead of the first call.
 */
final class KeyExpressionChecker {

    private static final Pattern INDEX_VARIABLE = Pattern.compile("[pa](\\d+)");

    /** Properties of {@link LockExpressionRoot}, readable without {@code #root.}. */
    private static final List<String> ROOT_PROPERTIES = List.of("method", "methodName", "args", "target",
            "targetClass");

    private final SpelExpressionParser parser = new SpelExpressionParser();

    private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

    private final BeanFactory beanFactory;

    /** @param beanFactory tells whether the beans that expressions reference ({@code @name}) exist */
    KeyExpressionChecker(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    /**
     * Parses a key expression and checks that every variable it reads is a parameter of {@code method} (by name or
     * index) or {@code #root}/{@code #this}, and every bean it references exists.
     *
     * @throws IllegalArgumentException with the reason (the caller adds where the expression was found)
     */
    Expression parse(String source, Method method) {
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
}
