package dev.distlock.testsupport;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checkers over a {@link History}. Each returns the violations it found, as readable lines (empty: none).
 *
 * <p>A critical section is an {@link LockEvent.Type#OK} event and the next {@link LockEvent.Type#END} of the same
 * process, thread and lock. It claims exclusive ownership from the OK stamp to the END stamp when the END says
 * {@code held=true} (the worker checked {@code isHeld()} at that moment) or {@code held=unchecked} (a naive worker
 * that trusts its lease blindly). A section that ends with {@code held=false}, or never ends (its process was
 * killed), claims only its OK instant. Stamps are {@code System.nanoTime()} of processes on one machine.
 */
public final class HistoryChecks {

    private HistoryChecks() {
    }

    /** One claimed critical section. */
    public record Section(String lock, String process, String thread, long token, long start, long end) {

        @Override
        public String toString() {
            return process + "/" + thread + " token " + token + " [" + start + ", " + end + "] ("
                    + (end - start) / 1_000 + " us)";
        }
    }

    /** The critical sections of a history. */
    public static List<Section> sections(History history) {
        Map<String, LockEvent> open = new HashMap<>();
        List<Section> sections = new ArrayList<>();
        for (LockEvent event : history.events()) {
            String key = event.process() + "|" + event.thread() + "|" + event.lock();
            if (event.type() == LockEvent.Type.OK) {
                LockEvent previous = open.put(key, event);
                if (previous != null) {
                    sections.add(point(previous));
                }
            } else if (event.type() == LockEvent.Type.END) {
                LockEvent started = open.remove(key);
                if (started != null) {
                    boolean claims = event.has("held=true") || event.has("held=unchecked");
                    sections.add(new Section(started.lock(), started.process(), started.thread(), started.token(),
                            started.nanos(), claims ? event.nanos() : started.nanos()));
                }
            }
        }
        open.values().forEach(started -> sections.add(point(started)));
        return sections;
    }

    /** Pairs of sections of one lock whose claimed intervals overlap. */
    public static List<String> overlaps(History history) {
        Map<String, List<Section>> byLock = new HashMap<>();
        for (Section section : sections(history)) {
            byLock.computeIfAbsent(section.lock(), k -> new ArrayList<>()).add(section);
        }
        List<String> found = new ArrayList<>();
        byLock.forEach((lock, list) -> {
            list.sort(Comparator.comparingLong(Section::start));
            Section latest = null;
            for (Section current : list) {
                if (latest != null && current.start() <= latest.end()) {
                    found.add("lock '" + lock + "': " + latest + " overlaps " + current);
                }
                if (latest == null || current.end() > latest.end()) {
                    latest = current;
                }
            }
        });
        return found;
    }

    /**
     * Grants of one lock whose fencing token is not larger than that of the grant before it (in OK order). Only
     * meaningful when fencing is on and sections do not overlap.
     */
    public static List<String> nonIncreasingTokens(History history) {
        Map<String, LockEvent> last = new HashMap<>();
        List<String> found = new ArrayList<>();
        List<LockEvent> grants = history.ofType(LockEvent.Type.OK);
        grants.sort(Comparator.comparingLong(LockEvent::nanos));
        for (LockEvent grant : grants) {
            LockEvent previous = last.put(grant.lock(), grant);
            if (previous != null && grant.token() <= previous.token()) {
                found.add("lock '" + grant.lock() + "': token " + grant.token() + " granted to " + grant.process()
                        + "/" + grant.thread() + " after token " + previous.token() + " granted to "
                        + previous.process() + "/" + previous.thread());
            }
        }
        return found;
    }

    private static Section point(LockEvent started) {
        return new Section(started.lock(), started.process(), started.thread(), started.token(), started.nanos(),
                started.nanos());
    }
}
