package dev.distlock.spring.boot.web;

import java.time.Duration;

import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.LockOperationException;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;

class LockProblemDetailsHandlerTests {

    private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DistributedLockWebAutoConfiguration.class));

    @Test
    void mappingIsOptIn() {
        this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(LockProblemDetailsHandler.class));
    }

    @Test
    void aBusyLockIsAConflictNamingTheLockAndItsHolder() {
        this.contextRunner.withPropertyValues("distributed-lock.web.problem-details=true").run((context) -> {
            ResponseEntity<ProblemDetail> response = context.getBean(LockProblemDetailsHandler.class)
                .notAcquired(new LockNotAcquiredException("orders:1", Duration.ofMillis(100), "orders@h:1",
                        Duration.ofSeconds(4)));
            assertThat(response.getStatusCode()).isEqualTo(HttpStatus.CONFLICT);
            assertThat(response.getBody().getProperties()).containsEntry("lock", "orders:1")
                .containsEntry("holder", "orders@h:1")
                .containsEntry("waitTime", "100ms")
                .containsEntry("holderRemainingLease", "4s");
        });
    }

    @Test
    void aBusyLockCanBeLocked423() {
        this.contextRunner
            .withPropertyValues("distributed-lock.web.problem-details=true",
                    "distributed-lock.web.not-acquired-status=LOCKED")
            .run((context) -> assertThat(context.getBean(LockProblemDetailsHandler.class)
                .notAcquired(new LockNotAcquiredException("x", Duration.ZERO))
                .getStatusCode()).isEqualTo(HttpStatus.LOCKED));
    }

    @Test
    void anInvalidStatusListsTheAllowedValues() {
        this.contextRunner
            .withPropertyValues("distributed-lock.web.problem-details=true",
                    "distributed-lock.web.not-acquired-status=banana")
            .run((context) -> {
                assertThat(context).hasFailed();
                Throwable cause = context.getStartupFailure();
                while (cause.getCause() != null) {
                    cause = cause.getCause();
                }
                assertThat(cause).hasMessage("distributed-lock.web.not-acquired-status must be CONFLICT (409) or"
                        + " LOCKED (423), was banana");
            });
    }

    @Test
    void redisUnreachableIsServiceUnavailableWithRetryAfter() {
        this.contextRunner.withPropertyValues("distributed-lock.web.problem-details=true").run((context) -> {
            ResponseEntity<ProblemDetail> response = context.getBean(LockProblemDetailsHandler.class)
                .redisUnavailable(new LockOperationException("x", "Lock 'x': not connected to Redis at h:1", null));
            assertThat(response.getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
            assertThat(response.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("1");
            assertThat(response.getBody().getDetail()).contains("not connected to Redis at h:1");
        });
    }
}
