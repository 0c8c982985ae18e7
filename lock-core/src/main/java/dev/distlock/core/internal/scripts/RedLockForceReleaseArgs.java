package dev.distlock.core.internal.scripts;

/**
 * The ARGV of {@code redlock/redlock-force-release.lua} (one node).
 *
 * @param unlockChannel the RedLock's unlock channel
 */
public record RedLockForceReleaseArgs(String unlockChannel) implements ScriptArgs {

    @Override
    public String[] argv() {
        return new String[] { this.unlockChannel };
    }
}
