package dev.distlock.spring.annotation;

/**
 * The kind of lock a {@link DistributedLock @DistributedLock} method runs under. Every kind is reentrant per thread: a
 * nested call that needs a lock of the same kind and name that the thread already holds re-enters it.
 *
 * <p>Use one kind per lock name: {@link #READ} and {@link #WRITE} on the same name are the two sides of one
 * read/write lock, but mixing other kinds on one name is not a supported way to coordinate.
 */
public enum LockType {

    /**
     * The exclusive lock ({@code RedisLockClient.getLock}): one holder at a time, waiters queued in Redis and handed
     * the lock in arrival order. The default, and the only kind that accepts several {@link DistributedLock#keys()
     * keys}.
     */
    REENTRANT,

    /**
     * The same lock as {@link #REENTRANT} ({@code RedisLockClient.getFairLock}), whose acquire never takes a free lock
     * ahead of a queued waiter, not even right after a holder's lease ran out: it looks at the queue in a script call
     * where the reentrant lock sends one plain {@code SET NX}.
     */
    FAIR,

    /**
     * The shared side of the read/write lock with this name ({@code getReadWriteLock(name).readLock()}): many readers
     * at once, none while a writer holds it or waits for it (writer preference). A read-locked method that calls a
     * {@link #WRITE} method on the same name fails with an {@link IllegalStateException} instead of deadlocking.
     */
    READ,

    /**
     * The exclusive side of the read/write lock with this name ({@code getReadWriteLock(name).writeLock()}): excludes
     * readers and other writers. A write-locked method may call {@link #READ} methods on the same name (downgrade).
     */
    WRITE,

    /**
     * A quorum lock over the independent masters of {@code distributed-lock.redlock.nodes}
     * ({@code RedLockClient.getLock}): granted when a majority grants it within the lease's validity. Needs those
     * nodes (or a {@code RedLockClient} bean); a declaration using it without them fails the application start.
     */
    REDLOCK
}
