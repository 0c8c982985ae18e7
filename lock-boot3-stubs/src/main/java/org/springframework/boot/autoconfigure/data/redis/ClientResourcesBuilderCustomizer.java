package org.springframework.boot.autoconfigure.data.redis;

import io.lettuce.core.resource.ClientResources;

/**
 * Compile-only stub of Spring Boot 3.5's {@code ClientResourcesBuilderCustomizer} (in Boot 4:
 * {@code boot.data.redis.autoconfigure}).
 */
@FunctionalInterface
public interface ClientResourcesBuilderCustomizer {

    /**
     * Customizes the builder.
     * @param clientResourcesBuilder the builder
     */
    void customize(ClientResources.Builder clientResourcesBuilder);
}
