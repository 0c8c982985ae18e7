package dev.distlock.core.internal.waiting;

/**
 * The announcement that a queued lock was handed to a waiter: {@code owner|fencingToken|serverMicros}.
 *
 * @param owner the waiter's owner token, now written to the lock key
 * @param fencingToken the token minted for it
 * @param serverMicros the server clock at the handoff, in microseconds
 */
public record Handoff(String owner, long fencingToken, long serverMicros) {

    /** Parses a message; null when it is not a handoff announcement. */
    static @org.jspecify.annotations.Nullable Handoff parse(String message) {
        int last = message.lastIndexOf('|');
        int middle = (last > 0) ? message.lastIndexOf('|', last - 1) : -1;
        if (middle <= 0) {
            return null;
        }
        try {
            return new Handoff(message.substring(0, middle), Long.parseLong(message.substring(middle + 1, last)),
                    Long.parseLong(message.substring(last + 1)));
        }
        catch (NumberFormatException ex) {
            return null;
        }
    }
}
