/**
 * Distributed locks on Redis: the public API.
 *
 * <p>Start with {@link dev.distlock.core.RedisLockClient}, get a {@link dev.distlock.core.RedisLock} by name,
 * and hold it through a {@link dev.distlock.core.LockLease}; or use {@link dev.distlock.core.LockTemplate} for the
 * callback style. Everything under {@code dev.distlock.core.internal} is implementation and may change.
 */
@NullMarked
package dev.distlock.core;

import org.jspecify.annotations.NullMarked;
