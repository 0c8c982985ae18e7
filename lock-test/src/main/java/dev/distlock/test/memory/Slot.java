package dev.distlock.test.memory;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One name's state in a {@link LockStore}, for one lock family (the exclusive locks, or the read/write lock): its
 * exclusive holder or writer, its readers, and the owners queued for it in arrival order. Guarded by the store's mutex.
 */
final class Slot {

    final String name;

    @Nullable Hold writer;

    final Map<Owner, Hold> readers = new LinkedHashMap<>();

    final Deque<Owner> queue = new ArrayDeque<>();

    Slot(String name) {
        this.name = name;
    }

    /** The hold a refused owner is told about: the writer, else the first reader. */
    @Nullable Hold blocker() {
        if (this.writer != null) {
            return this.writer;
        }
        return this.readers.values().stream().findFirst().orElse(null);
    }

    void remove(Hold hold) {
        if (this.writer == hold) {
            this.writer = null;
        }
        this.readers.remove(hold.owner, hold);
    }
}
