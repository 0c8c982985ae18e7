package dev.distlock.core.internal.scripts;

/** What a release script ({@code queued/release.lua}, {@code readwrite/write-release.lua}) does: its ARGV[1]. */
public enum ReleaseMode {

    /** Removes the owner's hold. */
    RELEASE("release"),

    /** A waiter gives up: removes its queue entry, and its hold if it was handed the lock meanwhile. */
    LEAVE("leave"),

    /** An outcome is unknown: a tombstone, then every queue entry and the hold of the owner go. */
    ABANDON("abandon"),

    /** Removes the hold whoever holds it. */
    FORCE("force"),

    /** Nobody holds it (an offer lapsed): offers it to the next live waiter. */
    PASS("pass");

    private final String argument;

    ReleaseMode(String argument) {
        this.argument = argument;
    }

    /** The mode as the scripts spell it. */
    public String argument() {
        return this.argument;
    }
}
