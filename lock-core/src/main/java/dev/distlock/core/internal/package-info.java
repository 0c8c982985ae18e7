/**
 * Implementation of the lock client. Not API; may change in any release.
 *
 * <p>How an acquisition flows, from {@code RedisLockClient.getLock(name).acquire(wait)} to Redis and back (see also
 * {@code docs/architecture.md}):
 * <ol>
 * <li>{@code ProtocolLock} is every lock kind's {@code RedisLock}: per-thread reentrancy (the engine's thread-hold
 * table), blocking and asynchronous entry points, lease handles. The kind's difference is a {@code LockProtocol}:
 * {@code QueuedProtocol} (reentrant, fair, multi-lock members), {@code WriteProtocol}/{@code ReadProtocol} (read/write
 * lock, {@code ReadWriteKeys}), {@code RedLockProtocol} (quorum over masters: {@code RedLockAttempt}, {@code
 * RedLockNodes}, {@code RedLockSubscriptions}). {@code LockKeys} names every key of a lock under one hash tag.</li>
 * <li>Acquisition and waiting: {@code QueuedAcquisition} runs one acquisition of a queued lock (one script call when
 * free; otherwise queued in Redis and handed the lock by a release, announced on this client's wake channel, which
 * {@code HandoffRooms} subscribes and dispatches); {@code AcquireOperation} with {@code WaitRooms}/{@code RacerSlot}
 * waits for the kinds that are not queued (readers, RedLock). Both end in a {@code Grant}.</li>
 * <li>Holding: a {@code Hold} per ownership (owner token from {@code OwnerTokens}, fencing token, validity on the
 * monotonic clock), handed out as {@code DefaultLockLease}/{@code MultiLease}; the {@code LeaseWatchdog} renews
 * watchdog leases and checks fixed ones in batches and reports losses; {@code LeaseRegistry} lists held leases and
 * tells listeners.</li>
 * <li>Release: the lease's close goes back to {@code ProtocolLock}, which stops renewal and runs the protocol's
 * owner-checked release script (handing the lock to the next waiter), retried in the background if Redis did not
 * answer; an acquisition whose outcome is unknown is abandoned with a tombstone by {@code LockEngine}.</li>
 * </ol>
 * {@code LockEngine} holds what one client shares (gateway, options, scheduler, watchdog, rooms, tokens);
 * everything that talks to Redis is in {@link dev.distlock.core.internal.redis}.
 */
@NullMarked
package dev.distlock.core.internal;

import org.jspecify.annotations.NullMarked;
