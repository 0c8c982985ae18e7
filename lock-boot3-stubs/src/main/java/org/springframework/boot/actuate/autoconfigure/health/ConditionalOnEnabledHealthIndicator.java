package org.springframework.boot.actuate.autoconfigure.health;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Compile-only stub of Spring Boot 3.5's {@code ConditionalOnEnabledHealthIndicator}; at run time the real one (with
 * its condition) is read from the class file's annotation by name.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.TYPE, ElementType.METHOD })
@Documented
public @interface ConditionalOnEnabledHealthIndicator {

    /**
     * The name of the health indicator.
     * @return the name
     */
    String value();
}
