package dev.distlock.spring.aop;

import java.lang.reflect.Method;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * Native-image hints for what a key expression reads by reflection whatever the application: the getters of
 * {@link LockExpressionRoot} ({@code #root.methodName}, {@code #root.args}...) and the names behind
 * {@code #root.method.name} and {@code #root.targetClass.simpleName}. The types of the locked methods' parameters
 * ({@code #order.id}) are registered per bean by {@link LockedBeanAotProcessor}.
 */
final class LockExpressionHints implements RuntimeHintsRegistrar {

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        hints.reflection().registerType(LockExpressionRoot.class, MemberCategory.INVOKE_PUBLIC_METHODS);
        hints.reflection().registerType(Method.class, (type) -> type.withMethod("getName", List.of(),
                ExecutableMode.INVOKE));
        hints.reflection().registerType(Class.class, (type) -> type
            .withMethod("getName", List.of(), ExecutableMode.INVOKE)
            .withMethod("getSimpleName", List.of(), ExecutableMode.INVOKE));
    }
}
