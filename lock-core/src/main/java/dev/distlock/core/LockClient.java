package dev.distlock.core;

import java.util.Arrays;
import java.util.Collection;

/**
 * Hands out locks by name: what {@link LockTemplate}, {@link dev.distlock.core.reactive.ReactiveLockTemplate} and the
 * Spring starter's {@code @DistributedLock} advice ask for. {@link RedisLockClient} is the implementation on Redis;
 * the {@code lock-test} module's {@code InMemoryLockClient} implements it in one JVM for tests that need no Redis.
 *
 * <p>What a lock promises (exclusion, reentrancy, waiting, leases, fencing tokens) is documented on {@link RedisLock}
 * and {@link LockLease}; every implementation keeps it within its own reach (one Redis deployment, one JVM).
 */
public interface LockClient {

    /**
     * The reentrant lock with this name.
     *
     * @throws IllegalArgumentException if the name is null, blank or longer than
     * {@link LockClientOptions#maxNameLength()}
     */
    RedisLock getLock(String name);

    /**
     * The lock with this name, granted to waiters in arrival order and never taken ahead of a queued waiter.
     *
     * @throws IllegalArgumentException if the name is invalid
     */
    RedisLock getFairLock(String name);

    /**
     * The read/write lock with this name.
     *
     * @throws IllegalArgumentException if the name is invalid
     */
    ReadWriteRedisLock getReadWriteLock(String name);

    /**
     * One lock over several names, acquired all or nothing; duplicate names count once.
     *
     * @throws IllegalArgumentException if no name is given or one is invalid
     */
    RedisLock getMultiLock(Collection<String> names);

    /** Varargs form of {@link #getMultiLock(Collection)}. */
    default RedisLock getMultiLock(String... names) {
        return getMultiLock(Arrays.asList(names));
    }

    /** The options this client runs with: instance id, leases, operation timeout, fencing. */
    LockClientOptions options();
}
