package dev.distlock.spring.boot.diagnostics;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

/**
 * Reports an invalid {@code @DistributedLock} declaration (bad SpEL, unknown parameter, unproxyable method, SKIP on a
 * primitive, missing fallback) in Boot's short form: the validator's message as the description, instead of the
 * bean creation stack trace.
 */
class InvalidLockDeclarationFailureAnalyzer implements FailureAnalyzer {

    static final String MARKER = "Invalid @DistributedLock";

    @Override
    public @Nullable FailureAnalysis analyze(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            String message = cause.getMessage();
            if (message != null && message.startsWith(MARKER)) {
                return new FailureAnalysis(message, "Fix the @DistributedLock declaration named above. Key"
                        + " expressions are SpEL over the method's parameters (#name needs -parameters, which"
                        + " spring-boot-starter-parent sets; otherwise use #p0), the method must be a non-final,"
                        + " non-private instance method of a non-final class, and a fallback method must exist with"
                        + " the same parameters.", cause);
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return null;
    }
}
