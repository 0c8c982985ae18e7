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
 * A Lua script loaded from {@code dev/distlock/core/scripts/<name>.lua} with its SHA-1, for {@code EVALSHA}. A line
 * {@code --@include <lib>} is replaced by {@code scripts/lib/<lib>.lua}, so code several scripts share (the queue
 * handoff) is written once; Redis sees, and hashes, the expanded body.
 *
 * @param name file name without extension
 * @param body the script source
 * @param sha1 lower-case hex SHA-1 of the body, as Redis computes it
 */
public record LuaScript(String name, String body, String sha1) {

    /** Queued locks: acquire, or check on a queued waiter. */
    public static final LuaScript ACQUIRE = load("acquire");

    /** Queued locks: release, leave, abandon or force, handing over to the next live waiter. */
    public static final LuaScript RELEASE = load("release");

    /** Queued locks: takes a free lock nobody queues for, leaving the token to the holder's request. */
    public static final LuaScript TAKE = load("take");

    /** Queued locks: mints the token of a hold taken without one, at the holder's request. */
    public static final LuaScript MINT = load("mint");

    public static final LuaScript RENEW = load("renew");

    public static final LuaScript ABANDON = load("abandon");

    public static final LuaScript READ_ACQUIRE = load("read-acquire");

    public static final LuaScript READ_RENEW = load("read-renew");

    public static final LuaScript READ_RELEASE = load("read-release");

    public static final LuaScript WRITE_ACQUIRE = load("write-acquire");

    public static final LuaScript WRITE_RELEASE = load("write-release");

    public static final LuaScript FORCE_RELEASE = load("force-release");

    public static final LuaScript INSPECT = load("inspect");

    public static final LuaScript REDLOCK_ACQUIRE = load("redlock-acquire");

    public static final LuaScript REDLOCK_FENCE = load("redlock-fence");

    public static final LuaScript REDLOCK_RELEASE = load("redlock-release");

    public static final LuaScript REDLOCK_ABANDON = load("redlock-abandon");

    public static final LuaScript REDLOCK_FORCE_RELEASE = load("redlock-force-release");

    /** Semaphores: take a permit or keep a place in the queue; return a permit; leave or abandon; count; inspect. */
    public static final LuaScript SEMAPHORE_ACQUIRE = load("semaphore-acquire");

    public static final LuaScript SEMAPHORE_RELEASE = load("semaphore-release");

    public static final LuaScript SEMAPHORE_LEAVE = load("semaphore-leave");

    public static final LuaScript SEMAPHORE_SET_PERMITS = load("semaphore-set-permits");

    public static final LuaScript SEMAPHORE_INSPECT = load("semaphore-inspect");

    /** Every script, for warming a server's script cache. */
    public static final List<LuaScript> ALL = List.of(ACQUIRE, TAKE, RELEASE, MINT, RENEW,
            ABANDON, READ_ACQUIRE, READ_RENEW, READ_RELEASE, WRITE_ACQUIRE, WRITE_RELEASE, FORCE_RELEASE, INSPECT,
            REDLOCK_ACQUIRE, REDLOCK_FENCE, REDLOCK_RELEASE, REDLOCK_ABANDON, REDLOCK_FORCE_RELEASE,
            SEMAPHORE_ACQUIRE, SEMAPHORE_RELEASE, SEMAPHORE_LEAVE, SEMAPHORE_SET_PERMITS, SEMAPHORE_INSPECT);

    private static final String INCLUDE = "--@include ";

    static LuaScript load(String name) {
        String body = read("/dev/distlock/core/scripts/" + name + ".lua");
        StringBuilder expanded = new StringBuilder(body.length() * 2);
        for (String line : body.split("\n", -1)) {
            if (line.startsWith(INCLUDE)) {
                expanded.append(read("/dev/distlock/core/scripts/lib/" + line.substring(INCLUDE.length()).trim()
                        + ".lua"));
            }
            else {
                expanded.append(line).append('\n');
            }
        }
        String source = expanded.substring(0, expanded.length() - 1);
        try {
            byte[] bytes = source.getBytes(StandardCharsets.UTF_8);
            return new LuaScript(name, source, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes)));
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
