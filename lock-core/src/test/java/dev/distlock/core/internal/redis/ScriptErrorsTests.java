package dev.distlock.core.internal.redis;

import io.lettuce.core.RedisCommandExecutionException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ACL refusals inside a script, and of the plain commands the client sends, are explained in the words of every server
 * the suite runs on: the messages below
 * are what Redis 7.0.15, Redis 8.0.2, Valkey 8.1.1 and Valkey 9.1.2 answer (AclUserContractTests sees them for
 * real; these pin the exact texts so a change shows up without the other servers at hand).
 */
class ScriptErrorsTests {

    private static final LuaScript SCRIPT = new LuaScript("demo", String.join("\n",
            "local held = redis.call('get', KEYS[1])",
            "local now = redis.call('time')",
            "local listening = redis.call('pubsub', 'numsub', ARGV[1])[2]",
            "return held"), "0000");

    @Test
    void redis7CommandRefusalIsNamedFromTheScriptLine() {
        Throwable explained = explain("ERR The user executing the script can't run this command or subcommand"
                + " script: 0000, on @user_script:2.");

        assertThat(explained).hasMessageContaining("the Redis user may not run 'time' (line 2 of the lock script"
                + " demo.lua)").hasMessageContaining("ACL SETUSER <user> +time");
    }

    @Test
    void aRefusedSubcommandIsNamedWithItsContainerAsAclRulesGrantIt() {
        Throwable explained = explain("ERR The user executing the script can't run this command or subcommand"
                + " script: 0000, on @user_script:3.");

        assertThat(explained).hasMessageContaining("may not run 'pubsub|numsub' (line 3")
                .hasMessageContaining("ACL SETUSER <user> +pubsub|numsub");
    }

    @Test
    void redis8AndValkeyCommandRefusalIsExplainedToo() {
        Throwable explained = explain("ERR ACL failure in script: User locks has no permissions to run the 'time'"
                + " command script: 0000, on @user_script:2.");

        assertThat(explained).hasMessageContaining("the Redis user may not run 'time' (line 2")
                .hasMessageContaining("ACL SETUSER <user> +time");
    }

    @Test
    void valkey9CommandRefusalWithoutTheShaIsExplainedToo() {
        Throwable explained = explain("ERR ACL failure in script: User locks has no permissions to run the 'time'"
                + " command script: on @user_script:2.");

        assertThat(explained).hasMessageContaining("the Redis user may not run 'time' (line 2");
    }

    @Test
    void redis7KeyRefusalHintsAtTheKeyPrefix() {
        Throwable explained = explain("NOPERM this user has no permissions to access one of the keys used as"
                + " arguments");

        assertThat(explained).hasMessageContaining("may not access the keys of this lock")
                .hasMessageContaining("~lock:*");
    }

    @Test
    void redis8AndValkeyKeyRefusalHintsAtTheKeyPrefixToo() {
        Throwable explained = explain("NOPERM No permissions to access a key");

        assertThat(explained).hasMessageContaining("may not access the keys of this lock")
                .hasMessageContaining("~lock:*");
    }

    @Test
    void otherErrorsAreLeftAlone() {
        RedisCommandExecutionException other = new RedisCommandExecutionException("ERR something else");

        assertThat(ScriptErrors.explain(SCRIPT, other)).isSameAs(other);
    }

    @Test
    void aPlainCommandsRefusalIsExplainedInTheWordsOfEachServer() {
        for (String said : new String[] { "NOPERM this user has no permissions to run the 'set' command",
                "NOPERM User locks has no permissions to run the 'set' command" }) {
            Throwable explained = ScriptErrors.explainCommand("set", new RedisCommandExecutionException(said));

            assertThat(explained).hasMessageContaining("the Redis user may not run 'set' (a plain command")
                    .hasMessageContaining("ACL SETUSER <user> +set").hasMessageEndingWith(said);
        }
    }

    @Test
    void aPlainCommandsKeyRefusalHintsAtTheKeyPrefix() {
        Throwable explained = ScriptErrors.explainCommand("set",
                new RedisCommandExecutionException("NOPERM No permissions to access a key"));

        assertThat(explained).hasMessageContaining("may not access the keys of this lock (command SET)")
                .hasMessageContaining("~lock:*");
    }

    @Test
    void aPlainCommandsOtherErrorsAreLeftAlone() {
        RedisCommandExecutionException other = new RedisCommandExecutionException("WRONGTYPE Operation against a key");

        assertThat(ScriptErrors.explainCommand("set", other)).isSameAs(other);
    }

    private static Throwable explain(String message) {
        return ScriptErrors.explain(SCRIPT, new RedisCommandExecutionException(message));
    }
}
