package dev.distlock.benchmarks.contention;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * A Lua script the bare floor clients run by {@code EVALSHA}, sending the body with {@code EVAL} when the server does
 * not know it (after a flush or restart).
 *
 * @param body the script
 * @param sha1 its SHA-1 as the server computed it when loading it
 */
record SyncScript(String body, String sha1) {

    /** Loads {@code body} on the server of {@code commands}. */
    static SyncScript load(RedisCommands<String, String> commands, String body) {
        return new SyncScript(body, commands.scriptLoad(body));
    }

    <T> T run(RedisCommands<String, String> commands, ScriptOutputType type, String[] keys, String... args) {
        try {
            return commands.evalsha(this.sha1, type, keys, args);
        }
        catch (RedisNoScriptException ex) {
            return commands.eval(this.body, type, keys, args);
        }
    }
}
