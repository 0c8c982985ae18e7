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
     * The exclusive lock ({@code RedisLockClient.getLock}): one holder at a time, waiters woken by a release message.
     * The default, and the only kind that accepts several {@link DistributedLock#keys() keys}.
     */
    REENTRANT,

    /**
     * An exclusive lock granted in arrival order across all clients ({@code RedisLockClient.getFairLock}). Costs one
     * Redis call per waiter per back-off step while waiting; a waiter whose process died is skipped after three
     * back-off periods.
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
