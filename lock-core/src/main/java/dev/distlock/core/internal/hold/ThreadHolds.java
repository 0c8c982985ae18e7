package dev.distlock.core.internal.hold;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import dev.distlock.core.internal.protocol.ThreadHoldsView;
import org.jspecify.annotations.Nullable;

/**
 * Which hold each thread has on each hold key, for reentrancy, the read-to-write upgrade check and the thread's hold
 * count in {@code LockInfo}. Only blocking acquisitions are recorded (their hold has a thread); one client shares one
 * table.
 */
public final class ThreadHolds implements ThreadHoldsView {

    private final ConcurrentMap<Key, Hold> holds = new ConcurrentHashMap<>();

    /** The hold {@code thread} recorded on {@code holdKey}, or null. */
    public @Nullable Hold current(String holdKey, Thread thread) {
        return this.holds.get(new Key(holdKey, thread));
    }

    @Override
    public @Nullable String validOwner(String holdKey, Thread thread) {
        Hold hold = current(holdKey, thread);
        return (hold != null && hold.isValid()) ? hold.owner() : null;
    }

    @Override
    public boolean holds(String holdKey, Thread thread) {
        Hold hold = current(holdKey, thread);
        return hold != null && hold.state() == Hold.State.HELD;
    }

    /** Records {@code hold} as its thread's hold on its protocol's hold key; a hold without a thread is ignored. */
    public void record(Hold hold) {
        Thread thread = hold.thread();
        if (thread != null) {
            this.holds.put(new Key(hold.protocol().holdKey(), thread), hold);
        }
    }

    /** Drops {@code hold} from its thread's entry, unless a newer hold replaced it there. */
    public void forget(Hold hold) {
        Thread thread = hold.thread();
        if (thread != null) {
            this.holds.remove(new Key(hold.protocol().holdKey(), thread), hold);
        }
    }

    /** Open leases of {@code thread}'s valid holds on the lock named {@code lockName}, over every hold key. */
    public int openLeases(Thread thread, String lockName) {
        int count = 0;
        for (var entry : this.holds.entrySet()) {
            Hold hold = entry.getValue();
            if (entry.getKey().thread() == thread && hold.lockName().equals(lockName) && hold.isValid()) {
                count += hold.openLeaseCount();
            }
        }
        return count;
    }

    private record Key(String holdKey, Thread thread) {
    }
}
