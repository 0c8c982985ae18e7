package dev.distlock.core.internal.scripts;

/**
 * The ARGV of {@code queued/take.lua}, in header order: the uncontended first attempt.
 *
 * @param owner the owner token
 * @param leaseMillis the lease in ms
 */
public record TakeArgs(String owner, long leaseMillis) implements ScriptArgs {

    @Override
    public String[] argv() {
        return new String[] { this.owner, Long.toString(this.leaseMillis) };
    }
}
