/**
 * What each lock kind runs on Redis, and nothing about waiting or holding: a {@code LockProtocol} per kind, in
 * two families: {@code HandoffProtocol}, queued in Redis and handed the lock ({@code QueuedProtocol} for the reentrant
 * and fair lock and multi-lock members, {@code WriteProtocol} for the write side of a read/write lock), and
 * {@code RacingProtocol}, woken to attempt again ({@code ReadProtocol} for the read side, made with the write side by
 * {@code ReadWriteProtocols}, {@code SemaphoreProtocol} for one permit of a semaphore, both holding members of a
 * sorted set through {@code MemberHolds}, RedLock's), the owner tokens ({@code OwnerTokens}), the keys of a
 * lock under one hash tag ({@code LockKeys}, {@code ReadWriteKeys}, {@code SemaphoreKeys}), the script calls with the
 * operation timeout and replica acknowledgement ({@code LockCommands}, {@code OperationTimeouts}), the parsed answers
 * ({@code Grant}, {@code AttemptResult}, {@code QueueReply}, {@code ReleaseReply}), the releasing client's watch over
 * a handoff offer that may lapse ({@code LapsedOffers}), the operator's one-step force release ({@code ForceRelease}),
 * and the interfaces the layers above implement for it ({@code ThreadHoldsView}, {@code LocalWakeUps}). The scripts'
 * arguments are records of {@code internal.scripts}; the scripts themselves are in {@code dev/distlock/core/scripts}.
 * Not API; may change in any release.
 */
@NullMarked
package dev.distlock.core.internal.protocol;

import org.jspecify.annotations.NullMarked;
