package dev.distlock.spring.aop;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A lookup done at the first call and remembered, without a lock: calls that race the first one may each look it up
 * (lookups are idempotent), but none of them waits, so the first calls on event-loop threads never block.
 *
 * @param <T> the looked-up type
 */
final class LazyLookup<T> implements Supplier<T> {

    private final AtomicReference<T> value = new AtomicReference<>();

    private final Supplier<T> lookup;

    LazyLookup(Supplier<T> lookup) {
        this.lookup = Objects.requireNonNull(lookup, "lookup must not be null");
    }

    @Override
    public T get() {
        T current = this.value.get();
        if (current != null) {
            return current;
        }
        T found = Objects.requireNonNull(this.lookup.get(), "the lookup returned null");
        return this.value.compareAndSet(null, found) ? found : this.value.get();
    }
}
