package dev.distlock.core.internal.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What managed services and proxies require of scripts (issue 19): every command name in {@code redis.call} is a
 * literal (some proxies refuse a name the script computes), and every key a command touches is passed in KEYS (proxies
 * and Redis Cluster route and check a script by its declared keys). Read from each script as it is sent, includes
 * expanded. Key arguments are {@code KEYS[n]} or one of a few names that the scripts bind to KEYS only, which the
 * second test checks.
 */
class ScriptKeysAndCommandsTests {

    /** redis.call / redis.pcall and everything up to the end of the line. */
    private static final Pattern CALL = Pattern.compile("redis\\.p?call\\((.*)$", Pattern.MULTILINE);

    private static final Pattern LITERAL_COMMAND = Pattern.compile("^\\s*'([a-z|]+)'\\s*(?:,\\s*(.*)|\\).*)$");

    /** Commands whose arguments are all keys. */
    private static final Set<String> ALL_KEYS = Set.of("exists", "del");

    /** Commands whose first argument is a key. */
    private static final Set<String> FIRST_KEY = Set.of("get", "set", "pexpire", "pttl", "lpop", "rpush", "lrem",
            "lrange", "lpos", "lindex", "llen", "zadd", "zrem", "zrange", "zcard", "zcount", "zscore",
            "zremrangebyscore", "zrangebyscore", "zrank", "incr");

    /** Commands without keys. */
    private static final Set<String> NO_KEYS = Set.of("time", "publish", "spublish", "pubsub");

    /** Names the scripts bind to KEYS only (checked by {@link #namesUsedAsKeysAreBoundToKeysOnly}). */
    private static final Set<String> KEY_NAMES = Set.of("Q.lock", "Q.fence", "Q.queue", "Q.tombstone", "fence", "lock",
            "queue");

    @Test
    void everyCommandNameIsALiteralAndEveryKeyIsDeclared() {
        List<String> problems = new ArrayList<>();
        for (LuaScript script : LuaScript.ALL) {
            Matcher call = CALL.matcher(script.body());
            while (call.find()) {
                String rest = call.group(1);
                Matcher literal = LITERAL_COMMAND.matcher(rest);
                if (!literal.find()) {
                    problems.add(script.name() + ": command name not a literal: redis.call(" + rest);
                    continue;
                }
                String command = literal.group(1);
                List<String> args = arguments(literal.group(2));
                if (ALL_KEYS.contains(command)) {
                    args.forEach((arg) -> checkKey(script, command, arg, problems));
                }
                else if (FIRST_KEY.contains(command)) {
                    checkKey(script, command, args.isEmpty() ? "" : args.get(0), problems);
                }
                else if (!NO_KEYS.contains(command)) {
                    problems.add(script.name() + ": command '" + command + "' is not known to this check: add it to "
                            + "one of its lists");
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void namesUsedAsKeysAreBoundToKeysOnly() {
        List<String> problems = new ArrayList<>();
        Pattern qAssignment = Pattern.compile("^\\s*(Q\\.[a-z_]+(?:\\s*,\\s*Q\\.[a-z_]+)*)\\s*=\\s*(.*)$",
                Pattern.MULTILINE);
        for (LuaScript script : LuaScript.ALL) {
            Matcher assignment = qAssignment.matcher(script.body());
            while (assignment.find()) {
                String[] targets = assignment.group(1).split("\\s*,\\s*");
                List<String> values = arguments(assignment.group(2));
                for (int i = 0; i < targets.length && i < values.size(); i++) {
                    if (KEY_NAMES.contains(targets[i]) && !values.get(i).matches("KEYS\\[\\d+\\]|lock|queue")) {
                        problems.add(script.name() + ": " + targets[i] + " = " + values.get(i));
                    }
                }
            }
            // mint(fence, ...) and hand_over_or_free(lock, queue) are called with KEYS or Q fields only.
            Matcher mint = Pattern.compile("mint\\(([^,)]*),").matcher(script.body());
            while (mint.find()) {
                String arg = mint.group(1).trim();
                if (!arg.equals("fence") && !arg.matches("KEYS\\[\\d+\\]|Q\\.fence")) {
                    problems.add(script.name() + ": mint(" + arg + ", ...)");
                }
            }
            Matcher free = Pattern.compile("hand_over_or_free\\(([^)]*)\\)").matcher(script.body());
            while (free.find()) {
                for (String arg : arguments(free.group(1))) {
                    if (!arg.matches("KEYS\\[\\d+\\]|lock|queue")) {
                        problems.add(script.name() + ": hand_over_or_free(" + free.group(1) + ")");
                    }
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    private static void checkKey(LuaScript script, String command, String arg, List<String> problems) {
        if (!arg.matches("KEYS\\[\\d+\\]") && !KEY_NAMES.contains(arg)) {
            problems.add(script.name() + ": " + command + " on '" + arg + "', not a declared key");
        }
    }

    /** Top-level comma-separated arguments of a call's remainder, up to its closing parenthesis. */
    private static List<String> arguments(String text) {
        List<String> args = new ArrayList<>();
        if (text == null) {
            return args;
        }
        int depth = 0;
        StringBuilder current = new StringBuilder();
        for (char c : text.toCharArray()) {
            if (c == '(' || c == '{' || c == '[') {
                depth++;
            }
            else if (c == ')' || c == '}' || c == ']') {
                if (depth == 0) {
                    break;
                }
                depth--;
            }
            if (c == ',' && depth == 0) {
                args.add(current.toString().trim());
                current.setLength(0);
                continue;
            }
            current.append(c);
        }
        if (!current.toString().isBlank()) {
            args.add(current.toString().trim());
        }
        return args;
    }
}
