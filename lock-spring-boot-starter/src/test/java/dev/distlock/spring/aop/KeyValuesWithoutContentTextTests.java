package dev.distlock.spring.aop;

import java.lang.reflect.Method;
import java.util.List;
import java.util.UUID;

import dev.distlock.spring.annotation.DistributedLock;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * A key that evaluates to an object whose class does not override {@code toString} would give every instance its own
 * lock name ({@code Order@1b6d3586}): such keys are refused before any lock is attempted, with a message that says to
 * name a property. Values with content-based text are accepted unchanged.
 */
class KeyValuesWithoutContentTextTests {

    private final LockOperationSource operations = new LockOperationSource(new DefaultListableBeanFactory(),
            new StandardEnvironment());

    @Test
    void objectWithoutOwnToStringIsRefusedNamingTheExpression() {
        assertThatIllegalArgumentException().isThrownBy(() -> lockName("whole", new PlainOrder("42")))
            .withMessageContaining("'#order'")
            .withMessageContaining(PlainOrder.class.getName())
            .withMessageContaining("does not override toString()")
            .withMessageContaining("Name a property")
            .withMessageContaining("'#order.id'")
            .withMessageContaining("the method did not run");
    }

    @Test
    void twoInstancesOfTheSameOrderWouldOtherwiseGetDifferentNames() {
        // The reason for the refusal: identity text differs per instance.
        assertThat(new PlainOrder("42").toString()).isNotEqualTo(new PlainOrder("42").toString());
    }

    @Test
    void lambdaIsRefused() {
        Runnable lambda = () -> { };
        assertThatIllegalArgumentException().isThrownBy(() -> lockName("anything", lambda))
            .withMessageContaining("does not override toString()");
    }

    @Test
    void elementWithoutOwnToStringIsRefusedInCollectionsAndArrays() {
        assertThatIllegalArgumentException()
            .isThrownBy(() -> lockNames("several", List.of("a", new PlainOrder("1"))))
            .withMessageContaining("with an element that is a " + PlainOrder.class.getName());
        assertThatIllegalArgumentException()
            .isThrownBy(() -> lockName("anything", new Object[] { new PlainOrder("1") }))
            .withMessageContaining("does not override toString()");
    }

    @Test
    void contentBasedValuesAreAccepted() {
        UUID uuid = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
        assertThat(lockName("anything", "A-1")).isEqualTo("orders:A-1");
        assertThat(lockName("anything", 42L)).isEqualTo("orders:42");
        assertThat(lockName("anything", uuid)).isEqualTo("orders:" + uuid);
        assertThat(lockName("anything", Color.RED)).isEqualTo("orders:RED");
        assertThat(lockName("anything", new RecordOrder("7"))).isEqualTo("orders:RecordOrder[id=7]");
        assertThat(lockName("anything", new Object[] { "a", 1 })).isEqualTo("orders:[a, 1]");
        assertThat(lockName("anything", new int[] { 1, 2 })).isEqualTo("orders:[1, 2]");
        assertThat(lockName("anything", List.of("a", "b"))).isEqualTo("orders:[a, b]");
        assertThat(lockName("whole", new PlainOrder("42").withText())).isEqualTo("orders:order 42");
        assertThat(lockNames("several", List.of("a", 2))).containsExactly("orders:a", "orders:2");
    }

    private String lockName(String method, @Nullable Object argument) {
        LockOperation operation = operation(method);
        return this.operations.resolver().lockName(operation, new @Nullable Object[] { argument }, new Service());
    }

    private List<String> lockNames(String method, Object argument) {
        LockOperation operation = operation(method);
        return this.operations.resolver().lockNames(operation, new @Nullable Object[] { argument }, new Service());
    }

    private LockOperation operation(String name) {
        Method method = ReflectionUtils.findMethod(Service.class, name, (Class<?>[]) null);
        assertThat(method).isNotNull();
        LockOperation operation = this.operations.getOperation(method, Service.class);
        assertThat(operation).isNotNull();
        return operation;
    }

    /** An entity without its own toString. */
    static class PlainOrder {

        final String id;

        PlainOrder(String id) {
            this.id = id;
        }

        public String getId() {
            return this.id;
        }

        TextOrder withText() {
            return new TextOrder(this.id);
        }
    }

    /** A subclass that does override toString. */
    static class TextOrder extends PlainOrder {

        TextOrder(String id) {
            super(id);
        }

        @Override
        public String toString() {
            return "order " + this.id;
        }
    }

    record RecordOrder(String id) {
    }

    enum Color { RED }

    static class Service {

        @DistributedLock(name = "orders", key = "#order")
        public void whole(Object order) {
        }

        @DistributedLock(name = "orders", key = "#value")
        public void anything(Object value) {
        }

        @DistributedLock(name = "orders", keys = "#values")
        public void several(Object values) {
        }
    }
}
