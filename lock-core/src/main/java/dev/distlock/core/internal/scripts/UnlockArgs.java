package dev.distlock.core.internal.scripts;

/**
 * The ARGV of {@code queued/unlock.lua}, in header order: an owner's release of a queued lock, the hot path.
 *
 * @param owner the owner token
 * @param fenceRetentionMillis the fence counter retention in ms, 0 when fencing is off
 * @param publish {@code publish} or {@code spublish}: how a handoff is announced
 * @param countsListeners whether the server's subscriber count of a wake channel proves the waiter's client listens
 */
public record UnlockArgs(String owner, long fenceRetentionMillis, String publish, boolean countsListeners)
        implements ScriptArgs {

    @Override
    public String[] argv() {
        return new String[] { this.owner, Long.toString(this.fenceRetentionMillis), this.publish,
                ScriptArgs.flag(this.countsListeners) };
    }
}
