package dev.distlock.core.internal.scripts;

/**
 * The ARGV of {@code semaphore/semaphore-leave.lua}, in header order.
 *
 * @param owner the owner token, without the fencing token
 * @param tombstoneMillis the tombstone lifetime in ms, or 0 to leave the queue without one
 * @param broadcastChannel the semaphore's broadcast channel
 * @param publish {@code publish} or {@code spublish}: how the waiters are woken
 */
public record SemaphoreLeaveArgs(String owner, long tombstoneMillis, String broadcastChannel,
        String publish) implements ScriptArgs {

    @Override
    public String[] argv() {
        return new String[] { this.owner, Long.toString(this.tombstoneMillis), this.broadcastChannel, this.publish };
    }
}
