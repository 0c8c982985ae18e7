package dev.distlock.core.internal.waiting;

import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.internal.hold.BackgroundCleanup;

/**
 * What the waiting layer uses of its client, wired once per client ({@code LockEngine.waiting()}).
 *
 * @param options the client's options (back-off, handoff offer, replica acknowledgement)
 * @param scheduler the client's timer thread; tasks on it must not block
 * @param cleanup clean-up of unwanted grants, places left and unknown outcomes
 * @param handoffRooms the wake channels of the queued family
 * @param waitRooms the unlock channels of the racing family
 * @param owners a new owner token per acquisition
 */
public record WaitContext(LockClientOptions options, ScheduledExecutorService scheduler, BackgroundCleanup cleanup,
        HandoffRooms handoffRooms, WaitRooms waitRooms, Supplier<String> owners) {

    String newOwner() {
        return this.owners.get();
    }
}
