package dev.distlock.spring.boot.web;

import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.LockOperationException;
import dev.distlock.core.internal.time.DurationFormat;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Turns lock failures that reach a Spring MVC controller into RFC 9457 problem details: a lock that stayed busy
 * becomes {@code 409 Conflict} (or {@code 423 Locked}, per {@code distributed-lock.web.not-acquired-status}) with the
 * lock name and, when known, its holder; Redis unreachable or erroring becomes {@code 503 Service Unavailable} with a
 * {@code Retry-After} of one second. Registered only with {@code distributed-lock.web.problem-details=true}; ordered
 * late, so the application's own handlers win.
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE - 100)
public class LockProblemDetailsHandler {

    private final HttpStatus notAcquiredStatus;

    public LockProblemDetailsHandler(HttpStatus notAcquiredStatus) {
        this.notAcquiredStatus = notAcquiredStatus;
    }

    @ExceptionHandler(LockNotAcquiredException.class)
    public ResponseEntity<ProblemDetail> notAcquired(LockNotAcquiredException ex) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(this.notAcquiredStatus, ex.getMessage());
        problem.setTitle("Lock not acquired");
        problem.setProperty("lock", ex.lockName());
        problem.setProperty("waitTime", DurationFormat.format(ex.waitTime()));
        if (ex.holderInstanceId() != null) {
            problem.setProperty("holder", ex.holderInstanceId());
        }
        if (ex.holderRemainingLease() != null) {
            problem.setProperty("holderRemainingLease", DurationFormat.format(ex.holderRemainingLease()));
        }
        return ResponseEntity.status(this.notAcquiredStatus).body(problem);
    }

    @ExceptionHandler(LockOperationException.class)
    public ResponseEntity<ProblemDetail> redisUnavailable(LockOperationException ex) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, ex.getMessage());
        problem.setTitle("Lock service unavailable");
        problem.setProperty("lock", ex.lockName());
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, "1").body(problem);
    }
}
