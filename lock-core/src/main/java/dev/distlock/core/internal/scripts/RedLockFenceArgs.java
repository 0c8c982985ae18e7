package dev.distlock.core.internal.scripts;

/**
 * The ARGV of {@code redlock/redlock-fence.lua} (round 2 on one node), in header order.
 *
 * @param token the fencing token to write, or 0 to only leave the waiters set
 * @param fenceRetentionMillis the fence retention in ms
 * @param acquisition the acquisition's owner token, taken off the waiters set
 */
public record RedLockFenceArgs(long token, long fenceRetentionMillis, String acquisition) implements ScriptArgs {

    @Override
    public String[] argv() {
        return new String[] { Long.toString(this.token), Long.toString(this.fenceRetentionMillis), this.acquisition };
    }
}
