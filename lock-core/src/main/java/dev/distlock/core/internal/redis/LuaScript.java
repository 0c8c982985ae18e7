package dev.distlock.core.internal.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * A Lua script loaded from {@code dev/distlock/core/scripts/<family>/<name>.lua} with its SHA-1, for {@code EVALSHA}.
 * The families are {@code queued/}, {@code readwrite/}, {@code redlock/}, {@code semaphore/} and {@code common/} (used
 * by several kinds). A line {@code --@include <lib>} is replaced by {@code scripts/lib/<lib>.lua}, so code several
 * scripts share (the queue handoff) is written once; Redis sees, and hashes, the expanded body. Every file name is
 * distinct across the folders, lib/ included, so a name alone says which file is meant.
 *
 * @param name the path below {@code scripts/} without extension, e.g. {@code queued/acquire}
 * @param body the script source
 * @param sha1 lower-case hex SHA-1 of the body, as Redis computes it
 */
public record LuaScript(String name, String body, String sha1) {

    /** Queued locks: acquire, or check on a queued waiter. */
    public static final LuaScript ACQUIRE = load("queued/acquire");

    /** Queued locks: takes a free lock nobody queues for, leaving the token to the holder's request. */
    public static final LuaScript TAKE = load("queued/take");

    /** Queued locks: the owner's release, handing over to the next live waiter (the hot path, fewest arguments). */
    public static final LuaScript UNLOCK = load("queued/unlock");

    /** Queued locks: the release of a hold {@link #TAKE} wrote, token unminted: compare-and-delete, no queue. */
    public static final LuaScript UNLOCK_TAKEN = load("queued/unlock-taken");

    /** Queued locks: leave, abandon, force or pass on a lapsed offer, handing over to the next live waiter. */
    public static final LuaScript RELEASE = load("queued/release");

    /** Queued locks: mints the token of a hold taken without one, at the holder's request. */
    public static final LuaScript MINT = load("queued/mint");

    /** Read/write locks: a read hold; its release; the abandon of a read acquisition. */
    public static final LuaScript READ_ACQUIRE = load("readwrite/read-acquire");

    public static final LuaScript READ_RELEASE = load("readwrite/read-release");

    public static final LuaScript READ_ABANDON = load("readwrite/read-abandon");

    /** Read/write locks: the write hold, queued like a queued lock; its release, leave, abandon or force. */
    public static final LuaScript WRITE_ACQUIRE = load("readwrite/write-acquire");

    public static final LuaScript WRITE_RELEASE = load("readwrite/write-release");

    /** Several kinds: renews a hold stored as a key's value (queued, write, RedLock node). */
    public static final LuaScript RENEW = load("common/renew");

    /** Several kinds: renews a hold stored as a sorted-set member (read hold, semaphore permit). */
    public static final LuaScript RENEW_MEMBER = load("common/renew-member");

    /** Several kinds: frees a name's queued or read/write lock whoever holds it; inspects them. */
    public static final LuaScript FORCE_RELEASE = load("common/force-release");

    public static final LuaScript INSPECT = load("common/inspect");

    /** RedLock, on one node each: round 1, round 2 (the fence), release, abandon, force. */
    public static final LuaScript REDLOCK_ACQUIRE = load("redlock/redlock-acquire");

    public static final LuaScript REDLOCK_FENCE = load("redlock/redlock-fence");

    public static final LuaScript REDLOCK_RELEASE = load("redlock/redlock-release");

    public static final LuaScript REDLOCK_ABANDON = load("redlock/redlock-abandon");

    public static final LuaScript REDLOCK_FORCE_RELEASE = load("redlock/redlock-force-release");

    /** Semaphores: take a permit or keep a place in the queue; return a permit; leave or abandon; count; inspect. */
    public static final LuaScript SEMAPHORE_ACQUIRE = load("semaphore/semaphore-acquire");

    public static final LuaScript SEMAPHORE_RELEASE = load("semaphore/semaphore-release");

    public static final LuaScript SEMAPHORE_LEAVE = load("semaphore/semaphore-leave");

    public static final LuaScript SEMAPHORE_SET_PERMITS = load("semaphore/semaphore-set-permits");

    public static final LuaScript SEMAPHORE_INSPECT = load("semaphore/semaphore-inspect");

    /** Every script, for warming a server's script cache. */
    public static final List<LuaScript> ALL = List.of(ACQUIRE, TAKE, UNLOCK, UNLOCK_TAKEN, RELEASE, MINT,
            READ_ACQUIRE, READ_RELEASE, READ_ABANDON, WRITE_ACQUIRE, WRITE_RELEASE, RENEW, RENEW_MEMBER, FORCE_RELEASE,
            INSPECT, REDLOCK_ACQUIRE, REDLOCK_FENCE, REDLOCK_RELEASE, REDLOCK_ABANDON, REDLOCK_FORCE_RELEASE,
            SEMAPHORE_ACQUIRE, SEMAPHORE_RELEASE, SEMAPHORE_LEAVE, SEMAPHORE_SET_PERMITS, SEMAPHORE_INSPECT);

    /** Where the scripts are, as a class path resource folder; each family in a folder of its own. */
    public static final String ROOT = "dev/distlock/core/scripts/";

    private static final String INCLUDE = "--@include ";

    /** Loads {@code ROOT/<path>.lua}, {@code path} being relative to {@link #ROOT} without the extension. */
    static LuaScript load(String path) {
        String body = read("/" + ROOT + path + ".lua");
        StringBuilder expanded = new StringBuilder(body.length() * 2);
        for (String line : body.split("\n", -1)) {
            if (line.startsWith(INCLUDE)) {
                expanded.append(read("/" + ROOT + "lib/" + line.substring(INCLUDE.length()).trim()
                        + ".lua"));
            }
            else {
                expanded.append(line).append('\n');
            }
        }
        String source = expanded.substring(0, expanded.length() - 1);
        try {
            byte[] bytes = source.getBytes(StandardCharsets.UTF_8);
            return new LuaScript(path, source, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes)));
        }
        catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-1 is required by every Java runtime", ex);
        }
    }

    private static String read(String path) {
        try (InputStream in = LuaScript.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("Script resource " + path + " is missing from the lock-core jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Could not read " + path, ex);
        }
    }
}
