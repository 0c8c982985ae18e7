package dev.distlock.spring.aop;

import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.spring.annotation.DistributedLock;
import org.aopalliance.intercept.MethodInterceptor;
import org.junit.jupiter.api.Test;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * An annotated method called through a proxy without a target object fails closed: it is not run without its lock.
 */
class TargetlessProxyTests {

    @Test
    void annotatedMethodOfAProxyWithoutTargetFailsAndDoesNotRun() {
        AtomicInteger bodyCalls = new AtomicInteger();
        AtomicInteger templateLookups = new AtomicInteger();
        LockOperationSource operations = new LockOperationSource(new DefaultListableBeanFactory(),
                new StandardEnvironment());
        DistributedLockInterceptor interceptor = new DistributedLockInterceptor(operations, () -> {
            templateLookups.incrementAndGet();
            throw new AssertionError("no lock can be taken here");
        });
        ProxyFactory factory = new ProxyFactory();
        factory.addInterface(Greeter.class);
        factory.addAdvice(interceptor);
        factory.addAdvice((MethodInterceptor) (invocation) -> {
            bodyCalls.incrementAndGet();
            return "ran unlocked";
        });
        Greeter greeter = (Greeter) factory.getProxy();

        assertThatIllegalStateException().isThrownBy(() -> greeter.greet("x"))
            .withMessageContaining(Greeter.class.getName() + ".greet")
            .withMessageContaining("without a target object")
            .withMessageContaining("the method was not called");
        assertThat(bodyCalls).hasValue(0);
        assertThat(templateLookups).hasValue(0);
        // Methods without the annotation are unaffected.
        assertThat(greeter.plain()).isEqualTo("ran unlocked");
    }

    interface Greeter {

        @DistributedLock(name = "greet", key = "#name")
        String greet(String name);

        String plain();
    }
}
