package dev.distlock.core.internal.scripts;

/** Which locks of a name {@code common/force-release.lua} frees: its ARGV[1]. */
public enum ForceScope {

    /** The queued lock first, then the read/write lock. */
    ANY("any"),

    /** The read/write lock only: its writer and every reader. */
    READ_WRITE("rw");

    private final String argument;

    ForceScope(String argument) {
        this.argument = argument;
    }

    /** The scope as the script spells it. */
    public String argument() {
        return this.argument;
    }
}
