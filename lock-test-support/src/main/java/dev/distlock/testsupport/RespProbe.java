package dev.distlock.testsupport;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Asks a port "which redis-server process are you?" over a bare RESP socket (no client library, so it is cheap
 * to call in a tight startup loop and never reconnects behind our back).
 */
final class RespProbe {

    /** The port did not answer (nothing listening yet, or the answer was not RESP). */
    static final long NO_ANSWER = 0;

    /** A Redis answered but would not tell its pid (e.g. authentication is required and failed). */
    static final long ANSWERED_WITHOUT_PID = -1;

    private static final int MAX_LINE = 64 * 1024;

    private RespProbe() {
    }

    /**
     * The {@code process_id} from {@code INFO server} of whatever listens on host:port.
     *
     * @return the pid, {@link #NO_ANSWER} or {@link #ANSWERED_WITHOUT_PID}
     */
    static long processId(String host, int port, @Nullable String password, Duration timeout) {
        int millis = (int) Math.max(1, timeout.toMillis());
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), millis);
            socket.setSoTimeout(millis);
            OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            InputStream in = new BufferedInputStream(socket.getInputStream());
            if (password != null) {
                send(out, "AUTH", password);
                if (isError(readReply(in))) {
                    return ANSWERED_WITHOUT_PID;
                }
            }
            send(out, "INFO", "server");
            String reply = readReply(in);
            if (isError(reply)) {
                return ANSWERED_WITHOUT_PID;
            }
            for (String line : reply.split("\r\n")) {
                if (line.startsWith("process_id:")) {
                    return Long.parseLong(line.substring("process_id:".length()).trim());
                }
            }
            return ANSWERED_WITHOUT_PID;
        } catch (IOException | RuntimeException e) {
            return NO_ANSWER;
        }
    }

    private static boolean isError(String reply) {
        return reply.startsWith("-");
    }

    private static void send(OutputStream out, String... words) throws IOException {
        StringBuilder command = new StringBuilder().append('*').append(words.length).append("\r\n");
        for (String word : words) {
            byte[] bytes = word.getBytes(StandardCharsets.UTF_8);
            command.append('$').append(bytes.length).append("\r\n").append(word).append("\r\n");
        }
        out.write(command.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** Simple strings, errors and integers come back with their type byte; bulk strings as their content. */
    private static String readReply(InputStream in) throws IOException {
        String line = readLine(in);
        if (line.isEmpty()) {
            throw new IOException("empty reply");
        }
        switch (line.charAt(0)) {
            case '+', '-', ':' -> {
                return line;
            }
            case '$' -> {
                int length = Integer.parseInt(line.substring(1));
                if (length < 0) {
                    return "";
                }
                byte[] content = in.readNBytes(length + 2);
                if (content.length != length + 2) {
                    throw new EOFException("truncated bulk reply");
                }
                return new String(content, 0, length, StandardCharsets.UTF_8);
            }
            default -> throw new IOException("not a RESP reply: " + line);
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int previous = -1;
        while (line.size() < MAX_LINE) {
            int next = in.read();
            if (next < 0) {
                throw new EOFException("connection closed");
            }
            if (previous == '\r' && next == '\n') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
            }
            line.write(next);
            previous = next;
        }
        throw new IOException("reply line too long");
    }
}
