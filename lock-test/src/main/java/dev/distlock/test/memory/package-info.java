/**
 * The in-memory lock client for tests without Redis: {@link dev.distlock.test.memory.InMemoryLockClient} (the locks
 * and the test controls) and {@link dev.distlock.test.memory.AutoConfigureInMemoryLocks} (the same, as the starter's
 * lock client in a Spring test). The rest is its machinery: {@code LockStore} (the shared state, what Redis is to
 * the real client), {@code Acquisition} (reentry, grant, waiting), {@code MemoryLock}, {@code MemoryLease} and
 * {@code MemoryMultiLease}.
 */
@NullMarked
package dev.distlock.test.memory;

import org.jspecify.annotations.NullMarked;
