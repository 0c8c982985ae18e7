/**
 * From the first attempt to a grant or a decision, without blocking a thread. {@code QueuedAcquisition} runs one
 * acquisition of a queued lock: one script call when the lock is free, otherwise queued in Redis by that call and
 * handed the lock by the release that reaches it, announced on this client's wake channel ({@code HandoffRooms}
 * subscribes once per name and dispatches a {@code Handoff}); {@code AcquireOperation} with {@code WaitRooms},
 * {@code WaitRoom} and {@code RacerSlot} waits for the kinds that are not queued (readers, RedLock). How often a waiter checks on Redis by itself is
 * {@code CheckCadence}; the failures they end with are {@code AcquireFailures}. Not API; may change in any release.
 */
@NullMarked
package dev.distlock.core.internal.waiting;

import org.jspecify.annotations.NullMarked;
