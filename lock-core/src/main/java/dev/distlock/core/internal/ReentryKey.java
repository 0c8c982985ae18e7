package dev.distlock.core.internal;

import java.util.List;

import dev.distlock.core.RedisLock;

/**
 * Identifies one hold for reentrancy outside the thread table (the reactive {@code Context}), keyed as the blocking
 * path keys its thread holds: by client, lock kind and hold key. A plain lock, the read side and the write side of
 * one name are three different holds, and so are the same lock on two clients.
 *
 * @param clientId the client that holds it
 * @param kind the lock kind: {@code reentrant}, {@code read}, {@code write} or {@code redlock}
 * @param holdKey the hold key of the lock's protocol
 */
public record ReentryKey(String clientId, String kind, String holdKey) {

    /**
     * The holds an acquisition of {@code lock} takes: one for a single lock, one per member of a multi-lock (in
     * acquisition order, the order of its lease's parts). A lock of another implementation is keyed by its class and
     * name.
     */
    public static List<ReentryKey> of(RedisLock lock) {
        if (lock instanceof ProtocolLock single) {
            return List.of(single.reentryKey());
        }
        if (lock instanceof MultiLock multi) {
            return multi.reentryKeys();
        }
        return List.of(new ReentryKey(lock.getClass().getName(), "other", lock.name()));
    }
}
