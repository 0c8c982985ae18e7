package dev.distlock.benchmarks.contention;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * One client instance of a lock implementation under test: its own Redis connections, like one application process.
 * Thread-safe; {@link #close()} releases every resource it opened (connections, threads, the Lettuce client).
 */
interface LockClient extends AutoCloseable {

    /**
     * Acquires the lock named {@code key}, waiting at most {@code wait}.
     *
     * @return the handle that releases it, or null if the lock was not free in time
     */
    @Nullable Held tryAcquire(String key, Duration wait) throws InterruptedException;

    @Override
    void close();

    /** One acquisition; {@link #release()} gives it back. */
    @FunctionalInterface
    interface Held {

        void release();
    }
}
