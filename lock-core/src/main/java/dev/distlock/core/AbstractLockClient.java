package dev.distlock.core;

import dev.distlock.core.internal.LockEngine;

/**
 * What {@link RedisLockClient} and {@link RedLockClient} share: the {@link LockEngine} every lock of the client runs
 * on, the counts it reports for metrics and leak checks, and closing it.
 */
abstract class AbstractLockClient implements AutoCloseable {

    private final LockEngine engine;

    AbstractLockClient(LockEngine engine) {
        this.engine = engine;
    }

    final LockEngine engine() {
        return this.engine;
    }

    /** Number of leases whose renewal or expiry the watchdog currently tracks (for metrics and leak checks). */
    public int activeLeaseCount() {
        return this.engine.watchedHolds();
    }

    /** Number of lock names this client currently waits on (each with one unlock subscription). */
    public int waitingLockCount() {
        return this.engine.waitingNames();
    }

    /**
     * Stops renewing and closes the connections this client opened (to every master, for RedLock); idempotent. Held
     * locks expire after their lease.
     */
    @Override
    public void close() {
        this.engine.close();
    }
}
