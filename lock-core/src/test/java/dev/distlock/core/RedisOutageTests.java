package dev.distlock.core;

import java.time.Duration;

import dev.distlock.testsupport.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** B11: Redis down means fast, clear failures; Redis back means service back within about a second. */
class RedisOutageTests {

    /** Far above what a fail-fast call may take, so a call that waits for an answer shows. */
    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(10);

    private RedisServer server;

    private ClientResources resources;

    private RedisClient redis;

    private RedisLockClient client;

    @BeforeEach
    void setUp() {
        this.server = RedisServer.start();
        this.resources = DefaultClientResources.builder()
            .reconnectDelay(RedisLockClient.recommendedReconnectDelay())
            .build();
        this.redis = RedisClient.create(this.resources, RedisURI.create(this.server.uri()));
        this.client = RedisLockClient.create(this.redis, LockClientOptions.builder()
            .operationTimeout(OPERATION_TIMEOUT)
            .build());
    }

    @AfterEach
    void tearDown() {
        this.client.close();
        this.redis.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        this.resources.shutdown();
        this.server.close();
    }

    @Test
    void lockCallsFailFastNamingTheServerWhileRedisIsDownAndWorkAgainSoonAfterItReturns() throws Exception {
        assertThat(this.client.redisTarget()).isEqualTo("127.0.0.1:" + this.server.port());
        this.server.kill9();
        await().atMost(Duration.ofSeconds(5)).until(() -> !this.client.isConnected());
        Thread.sleep(300); // past the grace for short blips

        long start = System.nanoTime();
        assertThatExceptionOfType(LockOperationException.class)
            .isThrownBy(() -> this.client.getLock("down").acquire(Duration.ofSeconds(5)))
            .withMessageContaining("not connected to Redis at 127.0.0.1:" + this.server.port());
        assertThatExceptionOfType(LockOperationException.class)
            .isThrownBy(() -> this.client.inspect("down"))
            .withMessageContaining("not connected to Redis");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(OPERATION_TIMEOUT.dividedBy(4));

        this.server.restart();
        long back = System.nanoTime();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(this.client::isConnected);
        Duration resumed = Duration.ofNanos(System.nanoTime() - back);
        try (LockLease lease = this.client.getLock("down").acquire(Duration.ofSeconds(1))) {
            assertThat(lease.isHeld()).isTrue();
        }
        System.out.println("resumed " + resumed.toMillis() + " ms after redis-server was back");
        // Lettuce's default back-off would take up to 30 s here; the recommended delay caps it at 1 s.
        assertThat(resumed).isLessThan(Duration.ofSeconds(3));
    }
}
