package dev.distlock.core.internal.protocol;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * The answer of {@code acquire.lua} or {@code take.lua} for a queued lock: a grant ({@code {1, token, remaining
 * lease}}, or the lease alone from {@code take.lua}, the token then left to the holder's request), or a refusal
 * ({@code {0, holder pttl, entry, position, holder}}).
 *
 * @param grant the grant when the caller holds the lock (granted now or handed over earlier), otherwise null
 * @param holderPttlMillis the holder's remaining lease when refused, {@code -1} when unknown or not told (a fresh
 * attempt queued third or further back)
 * @param entry the caller's queue entry, or the empty string when it is not queued
 * @param position the caller's place in the queue (0 is next), {@code -1} when not queued
 * @param sentAtNanos {@code System.nanoTime()} just before the request was sent
 * @param holder the holder's owner token when refused, or the empty string
 */
public record QueueReply(@Nullable Grant grant, long holderPttlMillis, String entry, long position, long sentAtNanos,
        String holder) {

    static QueueReply parse(List<Object> reply, String owner, long leaseMillis, long sentAtNanos) {
        if (reply.size() == 1) {
            // The uncontended path's grant (the lease alone): the token is left to the holder's request.
            return new QueueReply(new Grant(owner, Grant.UNMINTED, sentAtNanos), -1, "", -1, sentAtNanos, "");
        }
        if (LockCommands.toLong(reply.get(0)) == 1) {
            long token = Grant.parseToken(String.valueOf(reply.get(1)));
            long remainingMillis = LockCommands.toLong(reply.get(2));
            // Every grant gets the full lease from the script run (an offer found by a check is confirmed by it);
            // should a reply report less, validity counts from an earlier send time, so it ends when the key expires.
            long shortfall = (remainingMillis >= 0 && remainingMillis < leaseMillis)
                    ? leaseMillis - remainingMillis : 0;
            Grant grant = new Grant(owner, token, sentAtNanos - TimeUnit.MILLISECONDS.toNanos(shortfall));
            return new QueueReply(grant, -1, "", -1, sentAtNanos, "");
        }
        return new QueueReply(null, LockCommands.toLong(reply.get(1)), String.valueOf(reply.get(2)),
                LockCommands.toLong(reply.get(3)), sentAtNanos, String.valueOf(reply.get(4)));
    }

    public boolean queued() {
        return !this.entry.isEmpty();
    }
}
