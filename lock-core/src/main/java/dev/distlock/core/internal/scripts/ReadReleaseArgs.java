package dev.distlock.core.internal.scripts;

/**
 * The ARGV of {@code readwrite/read-release.lua}, in header order.
 *
 * @param hold the reader's hold {@code owner|token}
 * @param broadcastChannel the lock's broadcast channel
 * @param fenceRetentionMillis the fence counter retention in ms, 0 when fencing is off
 * @param publish {@code publish} or {@code spublish}: how a handoff is announced
 * @param countsListeners whether the server's subscriber count of a wake channel proves the waiter's client listens
 */
public record ReadReleaseArgs(String hold, String broadcastChannel, long fenceRetentionMillis, String publish,
        boolean countsListeners) implements ScriptArgs {

    @Override
    public String[] argv() {
        return new String[] { this.hold, this.broadcastChannel, Long.toString(this.fenceRetentionMillis),
                this.publish, ScriptArgs.flag(this.countsListeners) };
    }
}
