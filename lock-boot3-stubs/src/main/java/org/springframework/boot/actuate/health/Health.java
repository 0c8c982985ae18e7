package org.springframework.boot.actuate.health;

import java.util.Map;

/** Compile-only stub of Spring Boot 3.5's {@code Health}: the factory and builder methods the starter calls. */
public final class Health {

    private Health() {
    }

    /**
     * Starts an UP health.
     * @return a builder
     */
    public static Builder up() {
        throw new UnsupportedOperationException("compile-only stub");
    }

    /**
     * Starts a DOWN health.
     * @return a builder
     */
    public static Builder down() {
        throw new UnsupportedOperationException("compile-only stub");
    }

    /** Compile-only stub of {@code Health.Builder}. */
    public static class Builder {

        /**
         * Adds details.
         * @param details the details
         * @return this builder
         */
        public Builder withDetails(Map<String, ?> details) {
            throw new UnsupportedOperationException("compile-only stub");
        }

        /**
         * Builds the health.
         * @return the health
         */
        public Health build() {
            throw new UnsupportedOperationException("compile-only stub");
        }
    }
}
