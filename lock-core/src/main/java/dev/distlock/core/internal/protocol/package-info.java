/**
 * What each lock kind runs on Redis, and nothing about waiting or holding: a {@code LockProtocol} per kind
 * ({@code QueuedProtocol} for the reentrant and fair lock and multi-lock members, {@code WriteProtocol} and
 * {@code ReadProtocol} for the two sides of a read/write lock, made by {@code ReadWriteProtocols},
 * {@code SemaphoreProtocol} for one permit of a semaphore), the owner tokens ({@code OwnerTokens}), the keys of a
 * lock under one hash tag ({@code LockKeys}, {@code ReadWriteKeys}, {@code SemaphoreKeys}), the script calls with the
 * operation timeout and replica acknowledgement ({@code LockCommands}, {@code OperationTimeouts}), the parsed answers
 * ({@code Grant}, {@code AttemptResult}, {@code QueueReply}, {@code ReleaseReply}), the releasing client's watch over
 * a handoff offer that may lapse ({@code LapsedOffers}) and the operator's one-step force release
 * ({@code ForceRelease}). The scripts' arguments are records of {@code internal.scripts}; the scripts themselves are
 * in {@code dev/distlock/core/scripts}. Not API; may change in any release.
 */
@NullMarked
package dev.distlock.core.internal.protocol;

import org.jspecify.annotations.NullMarked;
