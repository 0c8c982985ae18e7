package dev.distlock.test.memory;

import org.springframework.test.context.TestContext;
import org.springframework.test.context.support.AbstractTestExecutionListener;

/**
 * Resets the context's {@link InMemoryLockClient} after every test method, so a busy lock or a control one test set
 * does not leak into the next test that shares the cached context. Registered in {@code META-INF/spring.factories};
 * does nothing for contexts without that bean and never loads a context.
 */
public final class InMemoryLockResetListener extends AbstractTestExecutionListener {

    @Override
    public int getOrder() {
        return LOWEST_PRECEDENCE - 100;
    }

    @Override
    public void afterTestMethod(TestContext testContext) {
        if (testContext.hasApplicationContext()) {
            testContext.getApplicationContext()
                .getBeanProvider(InMemoryLockClient.class)
                .ifAvailable(InMemoryLockClient::reset);
        }
    }
}
