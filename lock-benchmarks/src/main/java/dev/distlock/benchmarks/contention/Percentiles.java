package dev.distlock.benchmarks.contention;

import java.util.Arrays;

/** Nearest-rank percentiles of nanosecond samples. */
final class Percentiles {

    private final long[] sorted;

    Percentiles(long[] samples) {
        this.sorted = samples.clone();
        Arrays.sort(this.sorted);
    }

    /** The {@code p}-th percentile ({@code 0 < p <= 100}) in nanoseconds, or NaN without samples. */
    double of(double p) {
        if (this.sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100.0 * this.sorted.length);
        return this.sorted[Math.max(0, Math.min(this.sorted.length - 1, rank - 1))];
    }

    int count() {
        return this.sorted.length;
    }
}
