package dev.distlock.core.internal.scripts;

/**
 * The ARGV of {@code queued/mint.lua}, in header order.
 *
 * @param owner the owner token
 * @param fenceRetentionMillis the fence counter retention in ms (fencing is on when a token is asked for)
 */
public record MintArgs(String owner, long fenceRetentionMillis) implements ScriptArgs {

    @Override
    public String[] argv() {
        return new String[] { this.owner, Long.toString(this.fenceRetentionMillis) };
    }
}
