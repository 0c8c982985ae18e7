package dev.distlock.core.internal.scripts;

import java.util.Arrays;

/**
 * The ARGV of {@code readwrite/write-release.lua}, in header order: those of {@code queued/release.lua}, then the
 * readers' broadcast channel.
 *
 * @param release the arguments {@code queued/release.lua} takes too
 * @param readersChannel the read/write lock's broadcast channel, on which waiting readers are woken
 */
public record WriteReleaseArgs(ReleaseArgs release, String readersChannel) implements ScriptArgs {

    @Override
    public String[] argv() {
        String[] first = this.release.argv();
        String[] all = Arrays.copyOf(first, first.length + 1);
        all[first.length] = this.readersChannel;
        return all;
    }
}
