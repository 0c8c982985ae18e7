package dev.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class FencedCounterTests {

    private static RedisServer server;

    @BeforeAll
    static void start() {
        server = RedisServer.start();
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    @Test
    void serialFencedIncrementsAreExact() {
        LettuceCalls.call(RedisURI.create(server.uri()), redis -> {
            for (long token = 1; token <= 5; token++) {
                long value = FencedCounter.read(redis, "serial");
                assertThat(FencedCounter.write(redis, "serial", token, value + 1)).isTrue();
            }
            FencedCounter.Result result = FencedCounter.check(redis, "serial");
            assertThat(result.exact()).as("%s", result.violations()).isTrue();
            assertThat(result.value()).isEqualTo(5);
            return null;
        });
    }

    @Test
    void olderTokenIsRejectedAndALostUpdateIsFlagged() {
        LettuceCalls.call(RedisURI.create(server.uri()), redis -> {
            long readByOld = FencedCounter.read(redis, "race");
            long readByNew = FencedCounter.read(redis, "race");
            assertThat(FencedCounter.write(redis, "race", 2, readByNew + 1)).isTrue();
            assertThat(FencedCounter.write(redis, "race", 1, readByOld + 1)).as("older token").isFalse();
            assertThat(FencedCounter.check(redis, "race").exact()).isTrue();

            // without fencing (equal tokens) the stale write goes through and the checker must notice
            long stale = FencedCounter.read(redis, "unfenced");
            assertThat(FencedCounter.write(redis, "unfenced", 0, FencedCounter.read(redis, "unfenced") + 1)).isTrue();
            assertThat(FencedCounter.write(redis, "unfenced", 0, stale + 1)).isTrue();
            FencedCounter.Result result = FencedCounter.check(redis, "unfenced");
            assertThat(result.exact()).isFalse();
            assertThat(result.violations()).anyMatch(v -> v.contains("overlapped"));
            return null;
        });
    }
}
