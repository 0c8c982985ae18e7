package dev.distlock.testsupport;

import java.util.Objects;

/**
 * One thing a lock user did or saw, stamped with {@code System.nanoTime()} (CLOCK_MONOTONIC on Linux, so stamps of
 * different processes on one machine compare). Written as one line, {@link #toLine()}, parsed by {@link #parse}.
 *
 * @param nanos when it happened, {@code System.nanoTime()}
 * @param process which process (worker name)
 * @param thread which thread in it
 * @param type what happened
 * @param lock the lock name ({@code -} when none)
 * @param token the fencing token, or 0
 * @param info free text without {@code |} or line breaks
 */
public record LockEvent(long nanos, String process, String thread, Type type, String lock, long token, String info) {

    /** Line prefix that marks an event among other output. */
    public static final String PREFIX = "EV|";

    /** What a lock user did or saw. */
    public enum Type {
        /** An acquire was called. */
        INVOKE,
        /** The acquire returned a lease (token set); the critical section starts. */
        OK,
        /** The acquire failed or was refused ({@code info} says why). */
        FAIL,
        /** A loss listener was told the lease is lost ({@code info}: reason). */
        LOST,
        /** The critical section ends; {@code info} is {@code held=true} when {@code isHeld()} was still true. */
        END,
        /** The lease was closed without error. */
        RELEASED,
        /** Closing the lease threw ({@code info} says what). */
        RELEASE_FAIL,
        /** The protected counter was read ({@code info}: value). */
        READ,
        /** A fenced write was accepted ({@code info}: value). */
        WRITE_OK,
        /** A fenced write was rejected as older than the newest token seen. */
        WRITE_REJECTED,
        /** Anything else a worker reports ({@code info}: key=value pairs). */
        NOTE
    }

    public LockEvent {
        Objects.requireNonNull(type, "type");
        process = clean(process);
        thread = clean(thread);
        lock = clean(lock);
        info = clean(info);
    }

    /** Stamps an event now. */
    public static LockEvent now(String process, Type type, String lock, long token, String info) {
        return new LockEvent(System.nanoTime(), process, Thread.currentThread().getName(), type, lock, token, info);
    }

    /** The event as one line, starting with {@link #PREFIX}. */
    public String toLine() {
        return PREFIX + nanos + "|" + process + "|" + thread + "|" + type + "|" + lock + "|" + token + "|" + info;
    }

    /**
     * Parses a line written by {@link #toLine()}.
     *
     * @return the event, or null if the line is not an event
     */
    public static LockEvent parse(String line) {
        if (!line.startsWith(PREFIX)) {
            return null;
        }
        String[] parts = line.split("\\|", 8);
        if (parts.length != 8) {
            throw new IllegalArgumentException("malformed event line: " + line);
        }
        return new LockEvent(Long.parseLong(parts[1]), parts[2], parts[3], Type.valueOf(parts[4]), parts[5],
                Long.parseLong(parts[6]), parts[7]);
    }

    /** Whether {@code info} contains {@code key=value}. */
    public boolean has(String keyValue) {
        return (" " + info + " ").contains(" " + keyValue + " ");
    }

    /** The value of {@code key=value} in {@code info}, or null. */
    public String value(String key) {
        for (String part : info.split(" ")) {
            if (part.startsWith(key + "=")) {
                return part.substring(key.length() + 1);
            }
        }
        return null;
    }

    private static String clean(String text) {
        String value = (text == null || text.isEmpty()) ? "-" : text;
        return value.replace('|', '/').replace('\n', ' ').replace('\r', ' ');
    }
}
