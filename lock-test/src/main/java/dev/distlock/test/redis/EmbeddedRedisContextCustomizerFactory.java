package dev.distlock.test.redis;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Adds {@link EmbeddedRedisContextCustomizer} to the contexts of test classes annotated with
 * {@link AutoConfigureEmbeddedRedis}. Registered in {@code META-INF/spring.factories}.
 */
public final class EmbeddedRedisContextCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
            List<ContextConfigurationAttributes> configAttributes) {
        return TestContextAnnotationUtils.hasAnnotation(testClass, AutoConfigureEmbeddedRedis.class)
                ? new EmbeddedRedisContextCustomizer() : null;
    }
}
