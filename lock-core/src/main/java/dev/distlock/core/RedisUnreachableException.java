package dev.distlock.core;

/**
 * A lock client could not be created because Redis could not be reached or refused the credentials. The message
 * names what was tried and what to check. An {@link IllegalStateException}, as before this type existed.
 */
public class RedisUnreachableException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public RedisUnreachableException(String message, Throwable cause) {
        super(message, cause);
    }
}
