package dev.distlock.core.internal.time;

import java.time.Duration;

/**
 * Durations the way people write them in properties: {@code 100ms}, {@code 1.5s}, {@code 30s}, {@code 5m},
 * {@code 2h}, {@code 400d}; sub-millisecond values in microseconds ({@code 250us}). Never {@code PT0.1S}.
 */
public final class DurationFormat {

    private DurationFormat() {
    }

    public static String format(Duration duration) {
        if (duration.isNegative()) {
            return "-" + format(duration.negated());
        }
        if (duration.isZero()) {
            return "0ms";
        }
        long nanos = duration.toNanosPart() % 1_000_000;
        if (nanos != 0 && duration.toMillis() < 10) {
            long micros = duration.toNanos() / 1000;
            return (micros > 0) ? micros + "us" : duration.toNanos() + "ns";
        }
        long millis = duration.toMillis();
        if (millis % 86_400_000 == 0) {
            return (millis / 86_400_000) + "d";
        }
        if (millis % 3_600_000 == 0) {
            return (millis / 3_600_000) + "h";
        }
        if (millis % 60_000 == 0) {
            return (millis / 60_000) + "m";
        }
        if (millis % 1000 == 0) {
            return (millis / 1000) + "s";
        }
        if (millis >= 10_000 && millis % 100 == 0) {
            return (millis / 1000) + "." + (millis % 1000) / 100 + "s";
        }
        return millis + "ms";
    }
}
