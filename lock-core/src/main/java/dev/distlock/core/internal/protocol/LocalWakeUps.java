package dev.distlock.core.internal.protocol;

/**
 * Wakes this client's own waiters on an unlock channel at once, rather than when the release's broadcast comes back:
 * after a local release or force release. The waiting layer's {@code WaitRooms} implements it.
 */
@FunctionalInterface
public interface LocalWakeUps {

    /** Wakes every local waiter on {@code channel}. */
    void wakeEveryone(String channel);
}
