package dev.distlock.core.internal.scripts;

/**
 * The ARGV of {@code queued/acquire.lua} and {@code readwrite/write-acquire.lua}, in header order.
 *
 * @param owner the owner token
 * @param leaseMillis the lease in ms
 * @param fenceRetentionMillis the fence counter retention in ms, 0 when fencing is off
 * @param waitMillis how long the caller will wait in ms, 0 for a single attempt that never queues
 * @param wakeChannel the caller's wake channel
 * @param publish {@code publish} or {@code spublish}: how a handoff is announced
 * @param countsListeners whether the server's subscriber count of a wake channel proves the waiter's client listens
 * @param entry the caller's queue entry from an earlier reply (a check), or empty when not queued
 * @param offer how an offer to the caller is made: see {@link #offer}
 */
public record AcquireArgs(String owner, long leaseMillis, long fenceRetentionMillis, long waitMillis,
        String wakeChannel, String publish, boolean countsListeners, String entry, String offer) implements ScriptArgs {

    /**
     * The {@code offer} argument: how long an offer to the caller lasts unless it confirms it, in ms, capped at its
     * lease, followed by {@code '-'} when a hold handed over to it leaves its fencing token to the holder's request
     * ({@code lib/enqueue.lua}).
     */
    public static String offer(long offerMillis, long leaseMillis, boolean tokenOnRequest) {
        return Math.min(offerMillis, leaseMillis) + (tokenOnRequest ? "-" : "");
    }

    @Override
    public String[] argv() {
        return new String[] { this.owner, Long.toString(this.leaseMillis), Long.toString(this.fenceRetentionMillis),
                Long.toString(this.waitMillis), this.wakeChannel, this.publish, ScriptArgs.flag(this.countsListeners),
                this.entry, this.offer };
    }
}
