package dev.distlock.core.internal.scripts;

/**
 * The ARGV of {@code common/force-release.lua}, in header order.
 *
 * @param scope which locks of the name
 * @param fenceRetentionMillis the fence counter retention in ms, 0 when fencing is off
 * @param publish {@code publish} or {@code spublish}: how a handoff is announced
 * @param countsListeners whether the server's subscriber count of a wake channel proves the waiter's client listens
 * @param broadcastChannel the read/write lock's broadcast channel
 */
public record ForceReleaseArgs(ForceScope scope, long fenceRetentionMillis, String publish, boolean countsListeners,
        String broadcastChannel) implements ScriptArgs {

    @Override
    public String[] argv() {
        return new String[] { this.scope.argument(), Long.toString(this.fenceRetentionMillis), this.publish,
                ScriptArgs.flag(this.countsListeners), this.broadcastChannel };
    }
}
