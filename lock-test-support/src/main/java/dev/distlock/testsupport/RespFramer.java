package dev.distlock.testsupport;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Cuts a stream of RESP2/RESP3 replies (or of requests) into whole top-level frames, so that a {@link FaultProxy} can
 * drop single pub/sub messages without desynchronising the replies to commands, and tell a subscribing connection.
 *
 * <p>Incremental: {@link #feed(byte[], int)} takes any chunk of the stream and returns the frames it completed; an
 * incomplete tail is kept for the next chunk. Not thread-safe (one per connection direction).
 */
final class RespFramer {

    private static final Set<String> MESSAGE_KINDS = Set.of("message", "pmessage", "smessage");

    private static final Set<String> SUBSCRIBE_COMMANDS = Set.of("subscribe", "psubscribe", "ssubscribe");

    private byte[] buffer = new byte[8192];

    private int length;

    /** Thrown when the stream is not RESP; the caller then stops framing this connection. */
    static final class NotRespException extends Exception {

        private static final long serialVersionUID = 1L;

        NotRespException(String message) {
            super(message);
        }
    }

    /**
     * Appends a chunk and returns the complete frames now available, in stream order.
     *
     * @throws NotRespException if the data cannot be RESP
     */
    List<byte[]> feed(byte[] chunk, int count) throws NotRespException {
        ensureCapacity(length + count);
        System.arraycopy(chunk, 0, buffer, length, count);
        length += count;
        List<byte[]> frames = new ArrayList<>();
        int start = 0;
        while (start < length) {
            int end = frameEnd(start);
            if (end < 0) {
                break;
            }
            frames.add(Arrays.copyOfRange(buffer, start, end));
            start = end;
        }
        if (start > 0) {
            System.arraycopy(buffer, start, buffer, 0, length - start);
            length -= start;
        }
        return frames;
    }

    /** Bytes kept for an incomplete frame (handed on unframed when framing is given up). */
    byte[] drain() {
        byte[] rest = Arrays.copyOf(buffer, length);
        length = 0;
        return rest;
    }

    /** Whether a whole frame is a pub/sub delivery ({@code message}, {@code pmessage}, {@code smessage}). */
    static boolean isPubSubMessage(byte[] frame) {
        String kind = firstBulkString(frame);
        return kind != null && MESSAGE_KINDS.contains(kind);
    }

    /** Whether a whole request frame is a {@code SUBSCRIBE}, {@code PSUBSCRIBE} or {@code SSUBSCRIBE} command. */
    static boolean isSubscribeRequest(byte[] frame) {
        String command = firstBulkString(frame);
        return command != null && SUBSCRIBE_COMMANDS.contains(command.toLowerCase(Locale.ROOT));
    }

    /** The first element of an array or push frame when it is a bulk string, else null. */
    private static String firstBulkString(byte[] frame) {
        if (frame.length < 4 || (frame[0] != '*' && frame[0] != '>')) {
            return null;
        }
        int headerEnd = indexOfCrlf(frame, 1, frame.length);
        if (headerEnd < 0 || headerEnd + 2 >= frame.length || frame[headerEnd + 2] != '$') {
            return null;
        }
        int lengthEnd = indexOfCrlf(frame, headerEnd + 3, frame.length);
        if (lengthEnd < 0) {
            return null;
        }
        int size;
        try {
            size = Integer.parseInt(new String(frame, headerEnd + 3, lengthEnd - headerEnd - 3,
                    StandardCharsets.US_ASCII));
        } catch (NumberFormatException ex) {
            return null;
        }
        int contentStart = lengthEnd + 2;
        if (size < 0 || contentStart + size + 2 > frame.length || frame[contentStart + size] != '\r') {
            return null;
        }
        return new String(frame, contentStart, size, StandardCharsets.US_ASCII);
    }

    private int frameEnd(int start) throws NotRespException {
        return parse(start, 0);
    }

    /** End (exclusive) of the frame at {@code pos}, or -1 when it is not complete yet. */
    private int parse(int pos, int depth) throws NotRespException {
        if (depth > 64) {
            throw new NotRespException("RESP nesting deeper than 64");
        }
        if (pos >= length) {
            return -1;
        }
        byte type = buffer[pos];
        int lineEnd = indexOfCrlf(buffer, pos + 1, length);
        if (lineEnd < 0) {
            if (length - pos > 1024 * 1024) {
                throw new NotRespException("RESP header line longer than 1 MiB");
            }
            return -1;
        }
        int next = lineEnd + 2;
        switch (type) {
            case '+', '-', ':', '_', ',', '#', '(' -> {
                return next;
            }
            case '$', '!', '=' -> {
                long size = number(pos + 1, lineEnd);
                if (size < 0) {
                    return next;
                }
                long end = next + size + 2;
                return (end <= length) ? (int) end : -1;
            }
            case '*', '>', '~', '%', '|' -> {
                return aggregateEnd(type, number(pos + 1, lineEnd), next, depth);
            }
            default -> throw new NotRespException("not a RESP type byte: " + (char) type);
        }
    }

    /** End (exclusive) of an aggregate of {@code count} entries from {@code next}, or -1 when not complete yet. */
    private int aggregateEnd(byte type, long count, int next, int depth) throws NotRespException {
        if (count < 0) {
            return next;
        }
        long elements = (type == '%' || type == '|') ? count * 2 : count;
        int at = next;
        for (long i = 0; i < elements; i++) {
            at = parse(at, depth + 1);
            if (at < 0) {
                return -1;
            }
        }
        if (type == '|') {
            // an attribute map is followed by the reply it annotates
            return parse(at, depth + 1);
        }
        return at;
    }

    private long number(int from, int to) throws NotRespException {
        try {
            return Long.parseLong(new String(buffer, from, to - from, StandardCharsets.US_ASCII));
        } catch (NumberFormatException ex) {
            throw new NotRespException("bad RESP length: " + ex.getMessage());
        }
    }

    private static int indexOfCrlf(byte[] bytes, int from, int limit) {
        for (int i = from; i + 1 < limit; i++) {
            if (bytes[i] == '\r' && bytes[i + 1] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private void ensureCapacity(int needed) {
        if (needed > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(needed, buffer.length * 2));
        }
    }
}
