package dev.distlock.core;

import org.jspecify.annotations.Nullable;

/**
 * What {@link RedisLockClient#forceRelease(String)} did, read and done in one step on Redis: whose hold it removed and
 * to which queued waiter the lock went next. The evicted holder is not stopped: it keeps running until it checks its
 * lease ({@link LockLease#isHeld()}, a loss listener) or its next renewal is refused, and its writes are refused only
 * where the storage checks fencing tokens.
 *
 * @param name the lock name
 * @param mode what was held: {@link LockInfo.Mode#EXCLUSIVE} (reentrant or fair lock), {@link LockInfo.Mode#WRITE},
 * {@link LockInfo.Mode#READ} (every read hold is removed), or {@link LockInfo.Mode#FREE} when nothing was
 * @param previousOwner the owner token of the removed hold (for read holds, the reader whose lease lasted longest);
 * null when nothing was held
 * @param previousOwnerInstanceId which application instance held it; null when unknown or nothing was held
 * @param offeredTo the owner token of the queued waiter the lock was handed to, or null when nobody waited
 */
public record ForcedRelease(String name, LockInfo.Mode mode, @Nullable String previousOwner,
        @Nullable String previousOwnerInstanceId, @Nullable String offeredTo) {

    /** Whether a hold was removed. */
    public boolean released() {
        return this.mode != LockInfo.Mode.FREE;
    }
}
