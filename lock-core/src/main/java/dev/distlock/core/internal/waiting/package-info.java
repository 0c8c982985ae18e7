/**
 * From the first attempt to a grant or a decision, without blocking a thread, one {@code Acquirer} per lock family.
 * The queued family ({@code HandoffProtocol}): {@code QueuedAcquisition} runs one acquisition through its
 * {@code QueuedPhase}s: one script call when the lock is free, otherwise queued in Redis by that call and handed the
 * lock by the release that reaches it, announced on this client's wake channel ({@code HandoffRooms} subscribes once
 * per name and dispatches a {@code Handoff}); {@code CheckLoop} is its one timer, {@code OfferConfirmation} confirms a
 * handoff and {@code QueuedOutcome} arbitrates the result. The racing family ({@code RacingProtocol}: readers, RedLock,
 * semaphores): {@code AcquireOperation} with {@code WaitRooms}, {@code WaitRoom} and {@code RacerSlot}. How often a
 * waiter checks on Redis by itself is {@code CheckCadence}; the failures they end with are {@code AcquireFailures};
 * what they use of their client is a {@code WaitContext}. Not API; may change in any release.
 */
@NullMarked
package dev.distlock.core.internal.waiting;

import org.jspecify.annotations.NullMarked;
