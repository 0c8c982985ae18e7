/**
 * Implementation of the lock client. Not API; may change in any release.
 *
 * <p>How an acquisition flows, from {@code RedisLockClient.getLock(name).acquire(wait)} to the Lua script and back
 * (diagram in {@code docs/architecture.md}); each step is a package. The packages are layers, each importing only
 * those below it (internal, redlock, waiting, hold, protocol, redis, time; {@code LayerImportsTests} checks it):
 * <ol>
 * <li>This package: the lock objects the API hands out and what one client shares. {@code ProtocolLock} is every
 * lock kind's {@code RedisLock} (per-thread reentrancy, blocking and asynchronous entry points, lease handles;
 * {@code HoldKeeping} follows its holds' confirmations and tokens);
 * {@code MultiLock} takes several in a fixed order ({@code AsyncMultiAcquisition} without blocking);
 * {@code ReadWriteLocks} makes read/write locks; {@code LockEngine} wires, once per client, the script calls, the
 * rooms, the watchdog, the owner tokens and the per-thread holds ({@code ThreadHolds}); {@code LockInspector} reads a
 * lock's state for operators. {@code ProtocolSemaphore} is the {@code RedisSemaphore} (one hold per permit, never
 * reentrant) and {@code SemaphoreInspector} reads a semaphore's state.</li>
 * <li>{@link dev.distlock.core.internal.protocol}: what each lock kind runs on Redis, as a {@code LockProtocol}
 * of one of two families ({@code HandoffProtocol}: {@code QueuedProtocol} for reentrant, fair and multi-lock members,
 * {@code WriteProtocol}; {@code RacingProtocol}: {@code ReadProtocol}, semaphores, RedLock), the keys of a lock ({@code LockKeys}) and the script calls with their timeout
 * ({@code LockCommands}). Its answers are a {@code Grant}, an {@code AttemptResult} or a {@code QueueReply}.</li>
 * <li>{@link dev.distlock.core.internal.waiting}: from the first attempt to a grant. {@code QueuedAcquisition} queues
 * in Redis and is handed the lock by a release ({@code HandoffRooms} listens on this client's wake channel);
 * {@code AcquireOperation} with {@code WaitRooms} waits for readers, semaphores and RedLock.</li>
 * <li>{@link dev.distlock.core.internal.hold}: after the grant. A {@code Hold} per ownership, handed out as a
 * {@code DefaultLockLease}; the {@code LeaseWatchdog} renews and checks holds and reports losses; {@code HoldRelease}
 * runs the owner-checked release (which hands the lock to the next waiter), with {@code BackgroundCleanup} retrying
 * what Redis did not answer and abandoning unknown outcomes with a tombstone.</li>
 * <li>{@link dev.distlock.core.internal.redis}: everything that talks to Redis, and the Lua scripts.
 * {@link dev.distlock.core.internal.redlock}: the quorum lock over independent masters (above waiting).</li>
 * <li>{@link dev.distlock.core.internal.time}: durations checked and written for people.</li>
 * </ol>
 */
@NullMarked
package dev.distlock.core.internal;

import org.jspecify.annotations.NullMarked;
