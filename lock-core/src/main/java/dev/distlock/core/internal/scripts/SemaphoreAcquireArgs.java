package dev.distlock.core.internal.scripts;

/**
 * The ARGV of {@code semaphore/semaphore-acquire.lua}, in header order.
 *
 * @param owner the owner token
 * @param leaseMillis the lease in ms
 * @param fenceRetentionMillis the fence counter retention in ms, 0 when fencing is off
 * @param declaredPermits the permit count the caller declared, stored when none is
 * @param waiterKeepAliveMillis how long a waiter keeps its place without asking again, 0 for a single attempt
 */
public record SemaphoreAcquireArgs(String owner, long leaseMillis, long fenceRetentionMillis, int declaredPermits,
        long waiterKeepAliveMillis) implements ScriptArgs {

    @Override
    public String[] argv() {
        return new String[] { this.owner, Long.toString(this.leaseMillis), Long.toString(this.fenceRetentionMillis),
                Integer.toString(this.declaredPermits), Long.toString(this.waiterKeepAliveMillis) };
    }
}
