package dev.distlock.sample;

import dev.distlock.core.LockNotAcquiredException;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** Turns the sample's exceptions into RFC 9457 problem responses with a message that says what to do. */
@RestControllerAdvice
public class ApiExceptionHandler {

    /** 404 for an item that does not exist. */
    @ExceptionHandler
    public ProblemDetail unknownItem(UnknownItemException ex) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, ex.getMessage());
    }

    /** 400 for a malformed SKU, stock, buyer count or path. */
    @ExceptionHandler
    public ProblemDetail badRequest(IllegalArgumentException ex) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, ex.getMessage());
    }

    /** 503 when the item's lock stayed busy for the whole wait: nothing was reserved, the caller may retry. */
    @ExceptionHandler
    public ProblemDetail lockBusy(LockNotAcquiredException ex) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, ex.getMessage());
    }
}
