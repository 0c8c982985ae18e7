package dev.distlock.testsupport;

import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * A counter in Redis that only a lock holder should change: read it ({@link #read}), then write the value plus
 * one with the holder's fencing token ({@link #write}). The write is a Lua script that rejects a token older
 * than the newest one it accepted, the way a fencing-aware storage service would, and logs every decision.
 *
 * <p>Keys (one hash tag, so they share a Cluster slot): {@code counter:{name}} (the value),
 * {@code counter:{name}:token} (newest accepted token), {@code counter:{name}:log} (list of {@code A:token:value}
 * for accepted and {@code R:token:value} for rejected writes).
 *
 * <p>{@link #check(RedisCommands, String)} proves the run correct: the accepted values are exactly 1, 2, 3, ... (each
 * write stored the previous one plus one, i.e. every read-modify-write ran alone) and accepted tokens never decrease.
 */
public final class FencedCounter {

    /** KEYS: value, newest token, log. ARGV: token, new value. Returns 1 when accepted, 0 when rejected. */
    public static final String WRITE_SCRIPT = String.join("\n",
            "local newest = tonumber(redis.call('get', KEYS[2]) or '-1')",
            "local token = tonumber(ARGV[1])",
            "if token < newest then",
            "  redis.call('rpush', KEYS[3], 'R:' .. ARGV[1] .. ':' .. ARGV[2])",
            "  return 0",
            "end",
            "redis.call('set', KEYS[2], ARGV[1])",
            "redis.call('set', KEYS[1], ARGV[2])",
            "redis.call('rpush', KEYS[3], 'A:' .. ARGV[1] .. ':' .. ARGV[2])",
            "return 1");

    private FencedCounter() {
    }

    /** The value key of a counter. */
    public static String valueKey(String name) {
        return "counter:{" + name + "}";
    }

    /** Reads the counter (0 when absent). */
    public static long read(RedisCommands<String, String> redis, String name) {
        String value = redis.get(valueKey(name));
        return (value == null) ? 0 : Long.parseLong(value);
    }

    /**
     * Writes {@code value} with {@code token}.
     *
     * @return true when accepted, false when the token was older than the newest accepted one
     */
    public static boolean write(RedisCommands<String, String> redis, String name, long token, long value) {
        Long accepted = redis.eval(WRITE_SCRIPT, ScriptOutputType.INTEGER,
                new String[] { valueKey(name), valueKey(name) + ":token", valueKey(name) + ":log" },
                Long.toString(token), Long.toString(value));
        return accepted != null && accepted == 1L;
    }

    /** The outcome of a run, from the counter's log. */
    public record Result(long value, long accepted, long rejected, List<String> violations) {

        /** Whether the run was exact: no violation. */
        public boolean exact() {
            return violations.isEmpty();
        }
    }

    /** Checks a counter's log; see the class comment. */
    public static Result check(RedisCommands<String, String> redis, String name) {
        List<String> log = redis.lrange(valueKey(name) + ":log", 0, -1);
        long value = read(redis, name);
        List<String> violations = new ArrayList<>();
        long accepted = 0;
        long rejected = 0;
        long newestToken = Long.MIN_VALUE;
        long lastWritten = 0;
        for (String entry : log) {
            String[] parts = entry.split(":");
            long token = Long.parseLong(parts[1]);
            long written = Long.parseLong(parts[2]);
            if (parts[0].equals("R")) {
                rejected++;
                continue;
            }
            accepted++;
            if (written != lastWritten + 1) {
                violations.add("write #" + accepted + " (token " + token + ") stored " + written + " after "
                        + lastWritten + ": two read-modify-writes overlapped");
            }
            lastWritten = written;
            if (token < newestToken) {
                violations.add("token " + token + " accepted after newer token " + newestToken);
            }
            newestToken = Math.max(newestToken, token);
        }
        if (value != accepted) {
            violations.add("counter is " + value + " after " + accepted + " accepted writes");
        }
        return new Result(value, accepted, rejected, List.copyOf(violations));
    }
}
