/**
 * RedLock: one lock over N independent Redis masters, granted by a majority. {@code RedLocks} builds it for {@code
 * RedLockClient}; {@code RedLockProtocol} is its {@code LockProtocol}, {@code RedLockAttempt} one two-round attempt
 * (grant on a majority, then a fencing token written to a majority), {@code RedLockNodes} the per-node calls decided by
 * the first majority, {@code RedLockSubscriptions} the wake-ups from every node. The scripts are the {@code redlock-*}
 * ones. Not API; may change in any release.
 */
@NullMarked
package dev.distlock.core.internal.redlock;

import org.jspecify.annotations.NullMarked;
