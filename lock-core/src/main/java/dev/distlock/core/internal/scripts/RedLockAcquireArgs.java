package dev.distlock.core.internal.scripts;

/**
 * The ARGV of {@code redlock/redlock-acquire.lua} (round 1 on one node), in header order.
 *
 * @param attemptOwner the attempt's owner token (the acquisition's, {@code /}, an attempt number)
 * @param leaseMillis the lease in ms
 * @param fencing whether to read the node's fence
 * @param acquisition the acquisition's owner token
 * @param waiterMillis how long the waiter entry lives when the acquisition will wait if refused, 0 for a single
 * attempt
 */
public record RedLockAcquireArgs(String attemptOwner, long leaseMillis, boolean fencing, String acquisition,
        long waiterMillis) implements ScriptArgs {

    @Override
    public String[] argv() {
        return new String[] { this.attemptOwner, Long.toString(this.leaseMillis), ScriptArgs.flag(this.fencing),
                this.acquisition, Long.toString(this.waiterMillis) };
    }
}
