package dev.distlock.spring.aop;

import dev.distlock.testsupport.RedisExtension;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A real redis-server for a {@code @SpringBootTest} class. Declared with {@code @ExtendWith} <em>before</em>
 * {@code @SpringBootTest}, it starts before Spring's extension and stops after it, so a context closed by
 * {@code @DirtiesContext} never loses its Redis while shutting down (a {@code @RegisterExtension} field would stop the
 * server first).
 */
final class RedisForSpring implements BeforeAllCallback, AfterAllCallback {

    static final RedisExtension redis = RedisExtension.single();

    @Override
    public void beforeAll(ExtensionContext context) {
        redis.beforeAll(context);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        redis.afterAll(context);
    }

    /** Points {@code spring.data.redis.*} at the server; for a {@code @DynamicPropertySource} method. */
    static void register(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.host", redis::host);
        registry.add("spring.data.redis.port", redis::port);
    }
}
