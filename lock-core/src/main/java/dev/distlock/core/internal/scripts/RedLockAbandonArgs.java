package dev.distlock.core.internal.scripts;

/**
 * The ARGV of {@code redlock/redlock-abandon.lua} (one node), in header order.
 *
 * @param owner an attempt's owner token, or an acquisition's (which matches any of its attempts)
 * @param tombstoneMillis the tombstone lifetime in ms (> 0)
 * @param acquisition the acquisition's owner token, taken off the waiters set
 */
public record RedLockAbandonArgs(String owner, long tombstoneMillis, String acquisition) implements ScriptArgs {

    @Override
    public String[] argv() {
        return new String[] { this.owner, Long.toString(this.tombstoneMillis), this.acquisition };
    }
}
