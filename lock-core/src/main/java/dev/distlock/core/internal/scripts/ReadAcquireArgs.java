package dev.distlock.core.internal.scripts;

/**
 * The ARGV of {@code readwrite/read-acquire.lua}, in header order.
 *
 * @param owner the owner token
 * @param leaseMillis the lease in ms
 * @param fenceRetentionMillis the fence counter retention in ms, 0 when fencing is off
 * @param writeOwner the owner token of the same thread's write hold, or empty: a writer may take read holds
 * @param publish {@code publish} or {@code spublish}: how a handoff is announced
 * @param countsListeners whether the server's subscriber count of a wake channel proves the waiter's client listens
 */
public record ReadAcquireArgs(String owner, long leaseMillis, long fenceRetentionMillis, String writeOwner,
        String publish, boolean countsListeners) implements ScriptArgs {

    @Override
    public String[] argv() {
        return new String[] { this.owner, Long.toString(this.leaseMillis), Long.toString(this.fenceRetentionMillis),
                this.writeOwner, this.publish, ScriptArgs.flag(this.countsListeners) };
    }
}
