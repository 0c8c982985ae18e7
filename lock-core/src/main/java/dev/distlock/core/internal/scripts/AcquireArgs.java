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
 * @param offerMillis how long an offer to the caller lasts unless it confirms it, in ms; sent capped at the lease
 */
public record AcquireArgs(String owner, long leaseMillis, long fenceRetentionMillis, long waitMillis,
        String wakeChannel, String publish, boolean countsListeners, String entry,
        long offerMillis) implements ScriptArgs {

    @Override
    public String[] argv() {
        return new String[] { this.owner, Long.toString(this.leaseMillis), Long.toString(this.fenceRetentionMillis),
                Long.toString(this.waitMillis), this.wakeChannel, this.publish, ScriptArgs.flag(this.countsListeners),
                this.entry, Long.toString(Math.min(this.offerMillis, this.leaseMillis)) };
    }
}
