package dev.distlock.testsupport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The events of one test run, from any number of threads and processes, in arrival order. Thread-safe; tests can
 * wait for an event with a bounded {@link #await}.
 */
public final class History {

    private final ReentrantLock guard = new ReentrantLock();
    private final Condition added = guard.newCondition();
    private final List<LockEvent> events = new ArrayList<>();

    /** Adds an event. */
    public void add(LockEvent event) {
        guard.lock();
        try {
            events.add(event);
            added.signalAll();
        } finally {
            guard.unlock();
        }
    }

    /** Adds the event on this line if it is one ({@link LockEvent#parse}); other lines are ignored. */
    public void addLine(String line) {
        LockEvent event = LockEvent.parse(line);
        if (event != null) {
            add(event);
        }
    }

    /** A snapshot of all events. */
    public List<LockEvent> events() {
        guard.lock();
        try {
            return List.copyOf(events);
        } finally {
            guard.unlock();
        }
    }

    /** The events matching a predicate, in arrival order. */
    public List<LockEvent> select(Predicate<LockEvent> filter) {
        return events().stream().filter(filter).collect(Collectors.toList());
    }

    /** The events of one type. */
    public List<LockEvent> ofType(LockEvent.Type type) {
        return select(e -> e.type() == type);
    }

    /**
     * Waits for the first event (already recorded or arriving) that matches.
     *
     * @return the event
     * @throws AssertionError naming what was awaited and the last events, if none came within the timeout
     */
    public LockEvent await(String what, Duration timeout, Predicate<LockEvent> match) {
        long deadline = System.nanoTime() + timeout.toNanos();
        guard.lock();
        try {
            int checked = 0;
            while (true) {
                for (; checked < events.size(); checked++) {
                    if (match.test(events.get(checked))) {
                        return events.get(checked);
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("no event '" + what + "' within " + timeout + "; last events:\n  "
                            + events.subList(Math.max(0, events.size() - 15), events.size()).stream()
                                    .map(LockEvent::toLine).collect(Collectors.joining("\n  ")));
                }
                added.await(left, TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + what, e);
        } finally {
            guard.unlock();
        }
    }

    /** Number of events. */
    public int size() {
        guard.lock();
        try {
            return events.size();
        } finally {
            guard.unlock();
        }
    }
}
