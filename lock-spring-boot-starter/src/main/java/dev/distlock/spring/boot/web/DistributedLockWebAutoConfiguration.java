package dev.distlock.spring.boot.web;

import java.util.Locale;

import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.spring.boot.DistributedLockAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/**
 * Opt-in HTTP mapping of lock failures ({@link LockProblemDetailsHandler}) for servlet web applications, with
 * {@code distributed-lock.web.problem-details=true}. {@code distributed-lock.web.not-acquired-status} is
 * {@code CONFLICT} (409, default) or {@code LOCKED} (423).
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class)
@ConditionalOnClass({ ProblemDetail.class, LockNotAcquiredException.class,
        org.springframework.web.bind.annotation.RestControllerAdvice.class })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnBooleanProperty(name = "distributed-lock.web.problem-details")
public final class DistributedLockWebAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    LockProblemDetailsHandler lockProblemDetailsHandler(Environment environment) {
        // read as text: a value that is no HttpStatus at all gets the same message as one that is not allowed here
        String status = environment.getProperty("distributed-lock.web.not-acquired-status", "CONFLICT").trim();
        return switch (status.toUpperCase(Locale.ROOT)) {
            case "CONFLICT" -> new LockProblemDetailsHandler(HttpStatus.CONFLICT);
            case "LOCKED" -> new LockProblemDetailsHandler(HttpStatus.LOCKED);
            default -> throw new IllegalStateException("distributed-lock.web.not-acquired-status must be CONFLICT"
                    + " (409) or LOCKED (423), was " + status);
        };
    }
}
