package dev.distlock.core.internal.redis;

import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.lettuce.core.RedisCommandExecutionException;

/**
 * Makes a script's ACL refusal say which command is missing. Redis 7 reports a command a script may not run as
 * "The user executing the script can't run this command or subcommand script: &lt;sha&gt;, on @user_script:22.",
 * without the command; the line number finds it in the script's body. Redis 8 and Valkey name it: "ACL failure in
 * script: User u has no permissions to run the 'time' command script: ..., on @user_script:22.". A key outside the
 * user's key patterns ("NOPERM this user has no permissions to access one of the keys used as arguments" on Redis 7,
 * "NOPERM No permissions to access a key" on Redis 8 and Valkey) gets a hint about the key prefix. The plain commands
 * the client sends get the same explanations ({@link #explainCommand}).
 */
final class ScriptErrors {

    private static final Pattern REFUSED_LINE = Pattern.compile(
            "(?:can't run this command|no permissions to run the '[^']*' command).*@user_script:(\\d+)");

    private static final Pattern NAMED_COMMAND = Pattern.compile("no permissions to run the '([^']+)' command");

    private static final Pattern KEY_REFUSED = Pattern.compile("^NOPERM.*\\bkeys?\\b", Pattern.CASE_INSENSITIVE);

    private static final Pattern CALLED_COMMAND = Pattern.compile(
            "redis\\.p?call\\(\\s*(?:'([^']+)'(?:\\s*,\\s*'([a-z]+)')?|([A-Za-z0-9_\\[\\]]+))");

    /** Commands whose first argument names a subcommand, which ACL rules grant one by one. */
    private static final Set<String> CONTAINERS = Set.of("pubsub");

    private ScriptErrors() {
    }

    /** {@code failure}, or for an ACL refusal inside {@code script} an error that names the command and the fix. */
    static Throwable explain(LuaScript script, Throwable failure) {
        Throwable cause = causeOf(failure);
        String message = cause.getMessage();
        if (message == null) {
            return failure;
        }
        if (KEY_REFUSED.matcher(message).find()) {
            return keysRefused("script " + script.name() + ".lua", message, cause);
        }
        Matcher refused = REFUSED_LINE.matcher(message);
        if (!refused.find()) {
            return failure;
        }
        Matcher named = NAMED_COMMAND.matcher(message);
        String command = named.find() ? named.group(1)
                : commandOnLine(script.body(), Integer.parseInt(refused.group(1)));
        return commandRefused(command, "line " + refused.group(1) + " of the lock script " + script.name() + ".lua",
                message, cause);
    }

    /**
     * {@code failure}, or for an ACL refusal of the plain command {@code command} (sent by the client, not by a script)
     * an error that names it and the fix. Redis 7 names the command too: "NOPERM this user has no permissions to run
     * the 'set' command".
     */
    static Throwable explainCommand(String command, Throwable failure) {
        Throwable cause = causeOf(failure);
        String message = cause.getMessage();
        if (message == null || !message.startsWith("NOPERM")) {
            return failure;
        }
        if (KEY_REFUSED.matcher(message).find()) {
            return keysRefused("command " + command.toUpperCase(Locale.ROOT), message, cause);
        }
        return commandRefused(command, "a plain command of the lock client", message, cause);
    }

    private static Throwable causeOf(Throwable failure) {
        return (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause() : failure;
    }

    private static RedisCommandExecutionException keysRefused(String where, String message, Throwable cause) {
        return new RedisCommandExecutionException("NOPERM the Redis user may not access the keys of this lock ("
                + where + "): grant the key prefix of the lock client, e.g. ~lock:* and &lock:* for the default"
                + " prefix (docs/spring-boot-starter.md, \"Redis ACL\"). Redis said: " + message, cause);
    }

    private static RedisCommandExecutionException commandRefused(String command, String where, String message,
            Throwable cause) {
        return new RedisCommandExecutionException("NOPERM the Redis user may not run '" + command + "' (" + where
                + "). Grant every command of the distributed-lock ACL (docs/spring-boot-starter.md, \"Redis ACL\"),"
                + " e.g. ACL SETUSER <user> +" + command.toLowerCase(Locale.ROOT) + ". Redis said: " + message, cause);
    }

    /** The command called on a script line: a literal like {@code 'time'}, or the argument that names it. */
    static String commandOnLine(String body, int line) {
        String[] lines = body.split("\n", -1);
        if (line < 1 || line > lines.length) {
            return "?";
        }
        Matcher call = CALLED_COMMAND.matcher(lines[line - 1]);
        if (!call.find()) {
            return "?";
        }
        if (call.group(1) == null) {
            // a command passed in ARGV is the publish command: publish or spublish
            return "publish/spublish";
        }
        return (CONTAINERS.contains(call.group(1)) && call.group(2) != null) ? call.group(1) + "|" + call.group(2)
                : call.group(1);
    }
}
