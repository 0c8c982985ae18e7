package dev.distlock.testsupport;

/**
 * Thrown when a redis-server process cannot be found, started, signalled or stopped.
 *
 * <p>The message always says which server (port, pid) and, where the process wrote anything, ends with the
 * last lines of its log, so a failing test explains itself.
 */
public class RedisServerException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with a message that explains what went wrong.
     *
     * @param message what failed, for which server
     */
    public RedisServerException(String message) {
        super(message);
    }

    /**
     * Creates the exception with a message and the underlying cause.
     *
     * @param message what failed, for which server
     * @param cause   the underlying failure
     */
    public RedisServerException(String message, Throwable cause) {
        super(message, cause);
    }
}
