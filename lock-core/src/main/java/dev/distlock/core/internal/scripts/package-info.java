/**
 * The contract of each Lua script with the Java that calls it: one record per script's ARGV, its components in the
 * order of the script's header lines ({@code -- ARGV[n] name: ...}, names and all), each with {@code argv()} turning
 * it into the strings Redis takes ({@code ScriptArgs}); the modes some scripts take ({@code ReleaseMode},
 * {@code ForceScope}). {@code ScriptContractsTests} compares every record with its script's header. The replies are
 * parsed where they become the caller's types ({@code QueueReply}, {@code ReleaseReply} in {@code protocol}). Below
 * {@code protocol}, above {@code redis}; the scripts themselves are in {@code dev/distlock/core/scripts}. Not API; may
 * change in any release.
 */
@NullMarked
package dev.distlock.core.internal.scripts;

import org.jspecify.annotations.NullMarked;
