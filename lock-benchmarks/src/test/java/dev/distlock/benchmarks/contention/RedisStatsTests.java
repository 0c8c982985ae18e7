package dev.distlock.benchmarks.contention;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Parsing of {@code INFO commandstats} as Redis 7.0 prints it. */
class RedisStatsTests {

    @Test
    void commandCallsSumAllCommandsButTheHarnessOwnInfoAndConfig() {
        String info = """
                # Commandstats\r
                cmdstat_set:calls=10,usec=50,usec_per_call=5.00,rejected_calls=0,failed_calls=0\r
                cmdstat_evalsha:calls=4,usec=80,usec_per_call=20.00,rejected_calls=0,failed_calls=0\r
                cmdstat_get:calls=4,usec=4,usec_per_call=1.00,rejected_calls=0,failed_calls=0\r
                cmdstat_config|resetstat:calls=1,usec=9,usec_per_call=9.00,rejected_calls=0,failed_calls=0\r
                cmdstat_info:calls=2,usec=90,usec_per_call=45.00,rejected_calls=0,failed_calls=0\r
                """;

        assertThat(RedisStats.commandCalls(info)).isEqualTo(18);
    }

    @Test
    void perCommandKeepsCallsAndServerTimeOfEachCommandButTheHarnessOwn() {
        String info = """
                # Commandstats\r
                cmdstat_evalsha:calls=4,usec=80,usec_per_call=20.00,rejected_calls=0,failed_calls=0\r
                cmdstat_get:calls=4,usec=4,usec_per_call=1.00,rejected_calls=0,failed_calls=0\r
                cmdstat_config|resetstat:calls=1,usec=9,usec_per_call=9.00,rejected_calls=0,failed_calls=0\r
                cmdstat_info:calls=2,usec=90,usec_per_call=45.00,rejected_calls=0,failed_calls=0\r
                """;

        assertThat(RedisStats.perCommand(info)).containsOnlyKeys("evalsha", "get")
            .containsEntry("evalsha", new RedisStats.CommandStat(4, 80))
            .containsEntry("get", new RedisStats.CommandStat(4, 4));
    }
}
