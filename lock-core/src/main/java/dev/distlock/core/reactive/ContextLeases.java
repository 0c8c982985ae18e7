package dev.distlock.core.reactive;

import java.util.HashMap;
import java.util.Map;

import dev.distlock.core.LockLease;
import org.jspecify.annotations.Nullable;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * The leases a reactive pipeline runs under, as stored in its Reactor {@code Context}: the innermost one, and every
 * held lease by lock name for reentry.
 *
 * @param innermost the lease of the innermost locked section
 * @param byName every lease of the enclosing locked sections, by lock name
 */
record ContextLeases(LockLease innermost, Map<String, LockLease> byName) {

    /** The context key; a private type so no other code can overwrite the entry by accident. */
    static final Object KEY = ContextLeases.class;

    static @Nullable ContextLeases of(ContextView context) {
        return context.getOrDefault(KEY, null);
    }

    static Context with(Context context, LockLease lease) {
        ContextLeases outer = of(context);
        Map<String, LockLease> byName = new HashMap<>((outer != null) ? outer.byName() : Map.of());
        byName.put(lease.name(), lease);
        return context.put(KEY, new ContextLeases(lease, Map.copyOf(byName)));
    }

    static @Nullable LockLease held(ContextView context, String name) {
        ContextLeases leases = of(context);
        return (leases != null) ? leases.byName().get(name) : null;
    }
}
