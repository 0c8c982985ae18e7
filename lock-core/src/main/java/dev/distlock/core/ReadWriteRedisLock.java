package dev.distlock.core;

/**
 * A read/write lock held in Redis: many readers or one writer.
 *
 * <p><b>Readers</b> share the lock; each read hold has its own lease, so a reader whose process dies frees its share
 * when that lease ends, without affecting the other readers. <b>The writer</b> excludes readers and other writers.
 *
 * <p><b>Policy: writer preference.</b> A writer that waits keeps new readers out until it has had its turn (or until
 * it stops polling for three back-off periods), so a continuous stream of readers cannot starve writers. Releasing
 * the write lock wakes every waiting reader.
 *
 * <p><b>Downgrade, not upgrade.</b> The thread holding the write lock may take read holds and keep them after
 * releasing the write lock. A thread holding a read lock that asks for the write lock gets an
 * {@link IllegalStateException} at once, because two readers upgrading together would deadlock.
 *
 * <p>Both sides are reentrant per thread and renewed by the watchdog like {@link RedisLock}; each read or write
 * acquisition gets its own fencing token from the lock's counter.
 */
public interface ReadWriteRedisLock {

    /** The lock name. */
    String name();

    /** The shared side. */
    RedisLock readLock();

    /** The exclusive side. */
    RedisLock writeLock();
}
