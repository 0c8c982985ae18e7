package dev.distlock.reliability;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

/**
 * Prints a measured number as one line starting with {@code MEASURED:}, so the numbers of a run can be collected
 * from the build log (and from {@code target/measured.txt}, where each line is appended too).
 */
final class Measured {

    private Measured() {
    }

    /** Reports one measurement, e.g. {@code report("F2", "takeover after kill -9 = 1480 ms (lease 1500 ms)")}. */
    static synchronized void report(String test, String text) {
        String line = "MEASURED: " + test + " " + text + (Soak.enabled() ? " [soak]" : "");
        System.out.println(line);
        System.out.flush();
        String file = System.getProperty("distlock.measured.file");
        if (file != null && !file.isBlank()) {
            Path path = Paths.get(file);
            try {
                Files.createDirectories(path.getParent());
                Files.writeString(path, line + System.lineSeparator(), StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                System.out.println("(could not append to " + path + ": " + e + ")");
            }
        }
    }

    /** Milliseconds between two {@code System.nanoTime()} stamps, with one decimal. */
    static String millis(long fromNanos, long toNanos) {
        return String.format(java.util.Locale.ROOT, "%.1f ms", (toNanos - fromNanos) / 1_000_000.0);
    }

    /** A percentile (0-100) of a sorted-in-place array of nanosecond durations, in ms with one decimal. */
    static String percentileMillis(long[] nanos, double percentile) {
        java.util.Arrays.sort(nanos);
        if (nanos.length == 0) {
            return "n/a";
        }
        int index = (int) Math.min(nanos.length - 1, Math.ceil(percentile / 100.0 * nanos.length) - 1);
        return String.format(java.util.Locale.ROOT, "%.1f ms", nanos[Math.max(0, index)] / 1_000_000.0);
    }
}
