package dev.distlock.spring.boot.actuate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

/**
 * Answers {@code DELETE /actuator/distributedlocks/{name}} on a read-only endpoint (the default), which Spring MVC
 * refuses with a bare 405, with a 405 that says which property allows force-release and what it does to the holder.
 * Every other request and exception is left to the application's resolvers.
 */
final class ForceReleaseOffResolver implements HandlerExceptionResolver, Ordered {

    static final String MESSAGE = "Force-release (DELETE on the distributedlocks endpoint) is off: the endpoint is"
            + " read-only by default. Allow it with management.endpoint.distributedlocks.access=unrestricted, and"
            + " secure it like any write endpoint. The evicted holder keeps running until it checks its lease"
            + " (LockLease.isHeld(), a loss listener) or its next renewal is refused.";

    @Override
    public @Nullable ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response,
            @Nullable Object handler, Exception ex) {
        if (!(ex instanceof HttpRequestMethodNotSupportedException) || !"DELETE".equals(request.getMethod())
                || !request.getRequestURI().matches(".*/distributedlocks/[^/]+/?")) {
            return null;
        }
        try {
            response.setStatus(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
            response.setHeader(HttpHeaders.ALLOW, "GET");
            response.setContentType(MediaType.APPLICATION_JSON_VALUE);
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            response.getWriter().write("{\"status\":405,\"error\":\"Method Not Allowed\",\"message\":\"" + MESSAGE
                    + "\",\"path\":\"" + json(request.getRequestURI()) + "\"}");
            return new ModelAndView();
        }
        catch (IOException writeFailed) {
            return null;
        }
    }

    @Override
    public int getOrder() {
        // before Spring MVC's own resolvers (order 0), which would answer the bare 405
        return -1;
    }

    private static String json(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
