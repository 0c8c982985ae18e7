package dev.distlock.core.reactive;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.distlock.core.LockLease;
import dev.distlock.core.RedisLock;
import dev.distlock.core.internal.ReentryKey;
import dev.distlock.core.internal.hold.MultiLease;
import org.jspecify.annotations.Nullable;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * The leases a reactive pipeline runs under, as stored in its Reactor {@code Context}: the innermost one, and every
 * held lease by {@link ReentryKey} (client, lock kind and hold key) for reentry. A multi-lock's section records the
 * lease of each member under the member's key, so a nested section on one member reenters it.
 *
 * @param innermost the lease of the innermost locked section
 * @param held every lease of the enclosing locked sections, by hold
 */
record ContextLeases(LockLease innermost, Map<ReentryKey, LockLease> held) {

    /** The context key; a private type so no other code can overwrite the entry by accident. */
    static final Object KEY = ContextLeases.class;

    static @Nullable ContextLeases of(ContextView context) {
        return context.getOrDefault(KEY, null);
    }

    /** {@code context} with {@code lease}, an acquisition of {@code lock}, as the innermost lease. */
    static Context with(Context context, RedisLock lock, LockLease lease) {
        ContextLeases outer = of(context);
        Map<ReentryKey, LockLease> held = new HashMap<>((outer != null) ? outer.held() : Map.of());
        List<ReentryKey> keys = ReentryKey.of(lock);
        List<LockLease> parts = (keys.size() > 1 && lease instanceof MultiLease multi) ? multi.parts() : List.of(lease);
        if (parts.size() == keys.size()) {
            for (int i = 0; i < keys.size(); i++) {
                held.put(keys.get(i), parts.get(i));
            }
        }
        return context.put(KEY, new ContextLeases(lease, Map.copyOf(held)));
    }

    /**
     * The lease a nested section on {@code lock} reenters with, or null when no enclosing section holds it.
     *
     * @throws IllegalStateException when enclosing sections hold some members of the multi-lock {@code lock} but not
     * all: acquiring it would wait for this pipeline's own holds
     */
    static @Nullable LockLease held(ContextView context, RedisLock lock) {
        ContextLeases leases = of(context);
        if (leases == null) {
            return null;
        }
        List<ReentryKey> keys = ReentryKey.of(lock);
        List<LockLease> found = new ArrayList<>(keys.size());
        List<String> missing = new ArrayList<>();
        for (ReentryKey key : keys) {
            LockLease lease = leases.held().get(key);
            if (lease != null) {
                found.add(lease);
            }
            else {
                missing.add(key.holdKey());
            }
        }
        if (found.isEmpty()) {
            return null;
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("A nested section asks for multi-lock '" + lock.name()
                    + "' while enclosing sections of this pipeline hold some of its locks but not " + missing
                    + ": acquiring it would wait for those holds until its wait time. Take the multi-lock in the outer"
                    + " section, or nest only locks the outer sections hold completely or not at all.");
        }
        return (found.size() == 1) ? found.get(0) : new MultiLease(lock.name(), found);
    }
}
