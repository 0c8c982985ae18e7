/**
 * Distributed locks on Redis: the public API.
 *
 * <p>Start with {@link dev.distlock.core.RedisLockClient}, get a {@link dev.distlock.core.RedisLock} by name,
 * and hold it through a {@link dev.distlock.core.LockLease} (a {@link dev.distlock.core.RedisSemaphore} hands out
 * its permits as leases too); or use {@link dev.distlock.core.LockTemplate} for the
 * callback style. {@link dev.distlock.core.LockClient} is what the templates and the Spring starter need from a
 * client, so the {@code lock-test} module's in-memory client can stand in for Redis in tests. Everything under
 * {@code dev.distlock.core.internal} is implementation and may change.
 */
@NullMarked
package dev.distlock.core;

import org.jspecify.annotations.NullMarked;
