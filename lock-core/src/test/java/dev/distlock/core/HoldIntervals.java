package dev.distlock.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/** Records critical sections as [start, end] on {@code System.nanoTime} and finds any two that overlap. */
final class HoldIntervals {

    record Interval(long start, long end, String who) {
    }

    private final ConcurrentLinkedQueue<Interval> intervals = new ConcurrentLinkedQueue<>();

    void record(long start, long end, String who) {
        this.intervals.add(new Interval(start, end, who));
    }

    int size() {
        return this.intervals.size();
    }

    /** Intervals that started before an earlier-started one ended (checked against the latest end so far). */
    List<String> overlaps() {
        List<Interval> sorted = new ArrayList<>(this.intervals);
        sorted.sort(Comparator.comparingLong(Interval::start));
        List<String> found = new ArrayList<>();
        Interval latestEnding = null;
        for (Interval current : sorted) {
            if (latestEnding != null && current.start() < latestEnding.end()) {
                found.add(latestEnding + " overlaps " + current);
            }
            if (latestEnding == null || current.end() > latestEnding.end()) {
                latestEnding = current;
            }
        }
        return found;
    }
}
