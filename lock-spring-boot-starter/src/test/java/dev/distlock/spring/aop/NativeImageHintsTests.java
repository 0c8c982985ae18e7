package dev.distlock.spring.aop;

import java.io.IOException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.function.Predicate;

import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.internal.redis.LuaScript;
import dev.distlock.spring.annotation.DistributedLock;
import dev.distlock.spring.annotation.OnNotAcquired;
import org.junit.jupiter.api.Test;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.javapoet.ClassName;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hints a native image of an application needs from the starter, as Spring's AOT processing of that
 * application's context collects them (so through {@code META-INF/spring/aot.factories}).
 */
class NativeImageHintsTests {

    private static final String SCRIPTS = "dev/distlock/core/scripts/";

    @Test
    void everyLuaScriptOfLockCoreIsAResourceOfTheImage() throws IOException {
        RuntimeHints hints = hintsFor();
        Resource[] scripts = new PathMatchingResourcePatternResolver()
            .getResources("classpath*:" + SCRIPTS + "**/*.lua");
        // the scripts LuaScript loads and the lib/ files it splices into them
        assertThat(scripts).hasSizeGreaterThan(LuaScript.ALL.size());
        for (Resource script : scripts) {
            String url = script.getURL().toString();
            String path = url.substring(url.indexOf(SCRIPTS));
            assertThat(RuntimeHintsPredicates.resource().forResource(path)).as(path).accepts(hints);
        }
        assertThat(LuaScript.ALL).allSatisfy((script) -> assertThat(RuntimeHintsPredicates.resource()
            .forResource(SCRIPTS + script.name() + ".lua")).accepts(hints));
    }

    @Test
    void keyExpressionsCanReadTheRootObject() {
        RuntimeHints hints = hintsFor();
        assertThat(RuntimeHintsPredicates.reflection().onType(LockExpressionRoot.class)
            .withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).accepts(hints);
        assertThat(invocationOf(Method.class, "getName")).accepts(hints);
        assertThat(invocationOf(Class.class, "getSimpleName")).accepts(hints);
    }

    @Test
    void fallbackMethodsCanBeInvokedByReflection() {
        RuntimeHints hints = hintsFor(Orders.class);
        assertThat(invocationOf(Orders.class, "busy", Order.class)).accepts(hints);
        assertThat(invocationOf(Orders.class, "busyWithCause", Order.class, LockNotAcquiredException.class))
            .accepts(hints);
    }

    @Test
    void lockedMethodsCanBeReadAndInvokedByReflection() {
        RuntimeHints hints = hintsFor(Orders.class);
        assertThat(invocationOf(Orders.class, "place", Order.class)).accepts(hints);
        assertThat(invocationOf(Orders.class, "cancel", Order.class)).accepts(hints);
        assertThat(invocationOf(Orders.class, "unlocked", Order.class).negate()).accepts(hints);
    }

    @Test
    void keyExpressionsCanReadTheParameters() {
        RuntimeHints hints = hintsFor(Orders.class);
        assertThat(invocationOf(Order.class, "id")).accepts(hints);
        assertThat(invocationOf(Order.class, "items")).accepts(hints);
        assertThat(invocationOf(Item.class, "sku")).accepts(hints);
    }

    @Test
    void interfaceMethodsOfALockedBeanCanBeInvokedThroughAJdkProxy() {
        RuntimeHints hints = hintsFor(Orders.class);
        assertThat(RuntimeHintsPredicates.reflection().onType(OrderDesk.class)
            .withMemberCategory(MemberCategory.INVOKE_DECLARED_METHODS)).accepts(hints);
    }

    @Test
    void beansWithoutLocksGetNoHints() {
        RuntimeHints hints = hintsFor(Unlocked.class);
        assertThat(invocationOf(Unlocked.class, "run").negate()).accepts(hints);
    }

    private static RuntimeHints hintsFor(Class<?>... beanClasses) {
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            for (Class<?> beanClass : beanClasses) {
                context.registerBean(beanClass);
            }
            DefaultGenerationContext generation = new DefaultGenerationContext(
                    new ClassNameGenerator(ClassName.get(NativeImageHintsTests.class)), new InMemoryGeneratedFiles());
            new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
            return generation.getRuntimeHints();
        }
    }

    // Spring 7 replaces onMethod(...).invoke() with onMethodInvocation, which Spring 6.2 (Boot 3.5) does not have
    @SuppressWarnings("removal")
    private static Predicate<RuntimeHints> invocationOf(Class<?> type, String name, Class<?>... parameterTypes) {
        Method method = ReflectionUtils.findMethod(type, name, parameterTypes);
        assertThat(method).as("%s.%s", type.getSimpleName(), name).isNotNull();
        return RuntimeHintsPredicates.reflection().onMethod(method).invoke();
    }

    public record Order(String id, List<Item> items) {
    }

    public record Item(String sku) {
    }

    interface OrderDesk {

        String cancel(Order order);
    }

    static class Orders implements OrderDesk {

        @DistributedLock(key = "#order.id", onNotAcquired = OnNotAcquired.FALLBACK, fallback = "busy")
        public String place(Order order) {
            return "placed";
        }

        @Override
        @DistributedLock(keys = "#order.items.![sku]", onNotAcquired = OnNotAcquired.FALLBACK,
                fallback = "busyWithCause")
        public String cancel(Order order) {
            return "cancelled";
        }

        public String unlocked(Order order) {
            return "not locked";
        }

        String busy(Order order) {
            return "busy";
        }

        String busyWithCause(Order order, LockNotAcquiredException cause) {
            return "busy: " + cause.getMessage();
        }
    }

    static class Unlocked {

        public String run() {
            return "ran";
        }
    }
}
