package dev.distlock.core.internal.scripts;

/**
 * The ARGV of {@code queued/release.lua}, in header order; {@code readwrite/write-release.lua} takes one more
 * ({@link WriteReleaseArgs}).
 *
 * @param mode what the script does
 * @param owner the owner token, empty for {@code FORCE} and {@code PASS}
 * @param fenceRetentionMillis the fence counter retention in ms, 0 when fencing is off
 * @param publish {@code publish} or {@code spublish}: how a handoff is announced
 * @param countsListeners whether the server's subscriber count of a wake channel proves the waiter's client listens
 * @param modeArgument {@code LEAVE}: the caller's queue entry; {@code ABANDON}: the tombstone lifetime in ms;
 * otherwise empty
 */
public record ReleaseArgs(ReleaseMode mode, String owner, long fenceRetentionMillis, String publish,
        boolean countsListeners, String modeArgument) implements ScriptArgs {

    @Override
    public String[] argv() {
        return new String[] { this.mode.argument(), this.owner, Long.toString(this.fenceRetentionMillis),
                this.publish, ScriptArgs.flag(this.countsListeners), this.modeArgument };
    }
}
