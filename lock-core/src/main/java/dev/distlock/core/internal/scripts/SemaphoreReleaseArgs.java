package dev.distlock.core.internal.scripts;

/**
 * The ARGV of {@code semaphore/semaphore-release.lua}, in header order.
 *
 * @param permit the permit {@code owner|token}
 * @param broadcastChannel the semaphore's broadcast channel
 * @param publish {@code publish} or {@code spublish}: how the waiters are woken
 */
public record SemaphoreReleaseArgs(String permit, String broadcastChannel, String publish) implements ScriptArgs {

    @Override
    public String[] argv() {
        return new String[] { this.permit, this.broadcastChannel, this.publish };
    }
}
