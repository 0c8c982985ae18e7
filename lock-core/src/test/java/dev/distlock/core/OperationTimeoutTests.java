package dev.distlock.core;

import java.time.Duration;
import java.util.stream.Stream;

import dev.distlock.core.internal.redis.RedisGateway;
import dev.distlock.core.internal.redis.RedisGateways;
import dev.distlock.core.internal.time.DurationFormat;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.TimeoutOptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * A call Redis does not answer fails after the lock client's operation timeout, whoever times it: the Lettuce client,
 * where it times every command with the connection's timeout (the lock client then sets that timeout on its own
 * connections and adds no timer of its own), or the lock client's timer, where Lettuce does not or uses a timeout of
 * its own choosing. The client's URI keeps Lettuce's default timeout of 60 s, so a call left to it fails the test.
 */
class OperationTimeoutTests extends PausableRedisTest {

    private static final Duration OPERATION_TIMEOUT = Duration.ofMillis(400);

    static Stream<Arguments> lettuceTimeouts() {
        return Stream.of(
                arguments("Lettuce times every command with the connection's timeout", TimeoutOptions.enabled(), true),
                arguments("Lettuce times no command", TimeoutOptions.builder().timeoutCommands(false).build(), false),
                arguments("Lettuce times every command with a fixed timeout of 60 s",
                        TimeoutOptions.enabled(Duration.ofSeconds(60)), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lettuceTimeouts")
    void unansweredCallsFailAfterTheOperationTimeout(String setup, TimeoutOptions timeouts, boolean timedByLettuce)
            throws Exception {
        RedisClient lettuce = this.clients.lettuce(ClientOptions.builder().timeoutOptions(timeouts).build());
        try (RedisGateway gateway = RedisGateways.open(lettuce, false, OPERATION_TIMEOUT)) {
            assertThat(gateway.timesOutCommands()).as("Lettuce fails the gateway's commands after the timeout")
                .isEqualTo(timedByLettuce);
        }
        RedisLockClient client = this.clients.create(lettuce,
                LockClientOptions.builder().operationTimeout(OPERATION_TIMEOUT).maxBackoff(Duration.ofMillis(200))
                    .build());
        RedisLock lock = client.getLock("unanswered");
        lock.acquire(Duration.ZERO).close();

        this.redis.server().pause();
        long started = System.nanoTime();
        String timedOut = "Redis did not answer within " + DurationFormat.format(OPERATION_TIMEOUT);
        assertThatExceptionOfType(LockOperationException.class).as("the acquire's SET")
            .isThrownBy(() -> lock.acquire(Duration.ZERO))
            .withMessageContaining(timedOut);
        assertThatExceptionOfType(LockOperationException.class).as("EXISTS")
            .isThrownBy(lock::isLocked)
            .withMessageContaining(timedOut);
        assertThat(Duration.ofNanos(System.nanoTime() - started))
            .as("two calls, each failed by the operation timeout, none by the URI's 60 s")
            .isLessThan(Duration.ofSeconds(30));
        this.redis.server().resume();

        // The acquire whose outcome was unknown is released by the client's clean-up once Redis answers again.
        try (LockLease lease = lock.acquire(Duration.ofSeconds(20))) {
            assertThat(lease.isHeld()).isTrue();
        }
    }
}
