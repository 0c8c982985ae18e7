package dev.distlock.core;

import org.jspecify.annotations.Nullable;

/**
 * Work done while holding a lock, for {@link LockTemplate}.
 *
 * @param <T> the result type
 * @param <E> the checked exception the work may throw ({@link RuntimeException} when it throws none)
 */
@FunctionalInterface
public interface LockCallback<T extends @Nullable Object, E extends Throwable> {

    /** Runs with the lock held; {@code lease} gives the fencing token and whether the lease is still valid. */
    T doInLock(LockLease lease) throws E;
}
