package dev.distlock.core.internal.scripts;

/**
 * The ARGV of {@code semaphore/semaphore-set-permits.lua}, in header order.
 *
 * @param permits the new permit count
 * @param broadcastChannel the semaphore's broadcast channel
 * @param publish {@code publish} or {@code spublish}: how the waiters are woken
 */
public record SemaphoreSetPermitsArgs(int permits, String broadcastChannel, String publish) implements ScriptArgs {

    @Override
    public String[] argv() {
        return new String[] { Integer.toString(this.permits), this.broadcastChannel, this.publish };
    }
}
