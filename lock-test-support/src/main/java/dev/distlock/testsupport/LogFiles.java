package dev.distlock.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** Reads what a redis-server wrote to its log, for error messages. */
final class LogFiles {

    private LogFiles() {
    }

    /** The size of the file, or 0 if it does not exist yet. */
    static long size(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    /** Everything written to the file from the byte offset on ("" if unreadable). */
    static String readFrom(Path file, long offset) {
        try (InputStream in = Files.newInputStream(file)) {
            in.skipNBytes(Math.min(offset, Files.size(file)));
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** The last lines of the text, indented, for appending to an exception message. */
    static String tail(String text, int lines) {
        List<String> all = Arrays.asList(text.split("\\R"));
        List<String> last = all.subList(Math.max(0, all.size() - lines), all.size());
        if (text.isBlank()) {
            return "  (log is empty)";
        }
        return "  " + String.join("\n  ", last);
    }
}
