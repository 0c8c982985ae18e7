package dev.distlock.core.internal.protocol;

import java.util.List;

/**
 * The answer of a script that may hand a lock over: {@code queued/release.lua} and {@code readwrite/write-release.lua}
 * ({@code {status, offered to, offer ms, released owner}}, or the status alone for a plain release that found nobody
 * queued), {@code readwrite/read-release.lua} and {@code readwrite/read-abandon.lua} ({@code {status, offered to,
 * offer ms}}).
 *
 * @param removed whether a hold was removed (for {@code PASS}: whether the lock was offered)
 * @param offeredTo the waiter now offered the lock, or the empty string
 * @param offerMillis how long that offer lasts unless confirmed, {@code 0} when none was made
 * @param releasedOwner the owner whose hold was removed, or the empty string (or not reported)
 */
public record ReleaseReply(boolean removed, String offeredTo, long offerMillis, String releasedOwner) {

    private static final ReleaseReply RELEASED = new ReleaseReply(true, "", 0, "");

    private static final ReleaseReply NOT_RELEASED = new ReleaseReply(false, "", 0, "");

    static ReleaseReply parse(List<Object> reply) {
        boolean removed = LockCommands.toLong(reply.get(0)) == 1L;
        if (reply.size() == 1) {
            // A plain release's own reply, the uncontended case: nobody was offered the lock.
            return removed ? RELEASED : NOT_RELEASED;
        }
        return new ReleaseReply(removed, String.valueOf(reply.get(1)), LockCommands.toLong(reply.get(2)),
                (reply.size() > 3) ? String.valueOf(reply.get(3)) : "");
    }
}
