package dev.distlock.core.internal.scripts;

/**
 * The ARGV of one script as a record whose components are in the order of the script's header lines
 * ({@code ScriptContractsTests} compares the names and the count).
 */
public interface ScriptArgs {

    /** The arguments as Redis takes them: one string per component, in header order. */
    String[] argv();

    /** A flag as the scripts read it: {@code '1'} or {@code '0'}. */
    static String flag(boolean value) {
        return value ? "1" : "0";
    }
}
