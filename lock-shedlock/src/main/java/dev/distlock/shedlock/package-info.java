/**
 * A ShedLock {@link net.javacrumbs.shedlock.core.LockProvider} on distlock's Redis locks:
 * {@link dev.distlock.shedlock.DistlockLockProvider}.
 */
@NullMarked
package dev.distlock.shedlock;

import org.jspecify.annotations.NullMarked;
