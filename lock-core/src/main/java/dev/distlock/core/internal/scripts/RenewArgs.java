package dev.distlock.core.internal.scripts;

/**
 * The ARGV of {@code common/renew.lua} and {@code common/renew-member.lua}, in header order.
 *
 * @param owner the owner token (renew.lua), or the member hold {@code owner|token} (renew-member.lua)
 * @param leaseMillis the new lease in ms, or 0 to confirm without extending
 */
public record RenewArgs(String owner, long leaseMillis) implements ScriptArgs {

    @Override
    public String[] argv() {
        return new String[] { this.owner, Long.toString(this.leaseMillis) };
    }
}
