package dev.distlock.benchmarks.contention;

import java.util.Locale;
import java.util.Optional;

/** How {@link MarkdownReport} writes a figure in a table cell: "-" for a figure it does not have. */
final class Cells {

    private Cells() {
    }

    static String ratio(double value, Optional<Double> base) {
        // a ratio to a value that is not positive (a slightly negative handoff latency) says nothing
        return base.filter(b -> b > 0).map(b -> fixed(value / b, 2) + "x").orElse("-");
    }

    static String number(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%,.0f", value);
    }

    static String decimal(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, value < 100 ? "%.1f" : "%,.0f", value);
    }

    static String fixed(double value, int digits) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%." + digits + "f", value);
    }

    static String percent(double share) {
        if (Double.isNaN(share)) {
            return "-";
        }
        return String.format(Locale.ROOT, share > 0 && share < 0.1 ? "%.1f %%" : "%.0f %%", share * 100);
    }

    static String micros(double micros) {
        if (Double.isNaN(micros)) {
            return "-";
        }
        return Math.abs(micros) >= 1000 ? millis(micros / 1000) : String.format(Locale.ROOT, "%.0f us", micros);
    }

    static String millis(double millis) {
        if (Double.isNaN(millis)) {
            return "-";
        }
        return String.format(Locale.ROOT, Math.abs(millis) >= 100 ? "%.0f ms" : "%.1f ms", millis);
    }
}
