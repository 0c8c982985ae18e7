package dev.distlock.core.internal.scripts;

/**
 * The ARGV of {@code queued/unlock-taken.lua}: the uncontended release of a hold {@code take.lua} wrote.
 *
 * @param owner the owner token
 */
public record UnlockTakenArgs(String owner) implements ScriptArgs {

    @Override
    public String[] argv() {
        return new String[] { this.owner };
    }
}
