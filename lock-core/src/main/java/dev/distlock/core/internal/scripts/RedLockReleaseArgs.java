package dev.distlock.core.internal.scripts;

/**
 * The ARGV of {@code redlock/redlock-release.lua} (one node), in header order.
 *
 * @param owner an attempt's owner token, or an acquisition's (which matches any of its attempts)
 * @param unlockChannel the RedLock's unlock channel
 * @param wakeWaiters whether to publish the released owner token when live waiters are registered
 */
public record RedLockReleaseArgs(String owner, String unlockChannel, boolean wakeWaiters) implements ScriptArgs {

    @Override
    public String[] argv() {
        return new String[] { this.owner, this.unlockChannel, ScriptArgs.flag(this.wakeWaiters) };
    }
}
