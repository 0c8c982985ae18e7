package dev.distlock.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.distlock.testsupport.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * B11, lazy start: a client created with {@code createConnectingInBackground} while no redis-server runs starts at
 * once, fails lock calls fast and clearly, and works, waiting and handoff included, soon after the server starts.
 */
@Timeout(60)
class ClientStartedBeforeRedisTests {

    /** Far above what a fail-fast call may take, so a call that waits for an answer shows. */
    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(10);

    private RedisServer server;

    private ClientResources resources;

    private RedisClient redis;

    @BeforeEach
    void serverNotRunningYet() {
        // take a free port the way the tests do, then stop the server: the client starts before Redis does
        this.server = RedisServer.start();
        this.server.stop();
        this.resources = DefaultClientResources.builder()
            .reconnectDelay(RedisLockClient.recommendedReconnectDelay())
            .build();
        this.redis = RedisClient.create(this.resources, RedisURI.create(this.server.uri()));
    }

    @AfterEach
    void tearDown() {
        this.redis.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        this.resources.shutdown();
        this.server.close();
    }

    @Test
    void startsWithoutRedisFailsFastUntilItIsUpThenLocksWaitsAndHandsOver() throws Exception {
        long created = System.nanoTime();
        try (RedisLockClient client = RedisLockClient.createConnectingInBackground(this.redis, options())) {
            assertThat(Duration.ofNanos(System.nanoTime() - created)).isLessThan(Duration.ofSeconds(5));
            assertThat(client.isConnected()).isFalse();
            assertThat(client.redisTarget()).isEqualTo("127.0.0.1:" + this.server.port());

            long start = System.nanoTime();
            assertThatExceptionOfType(LockOperationException.class)
                .isThrownBy(() -> client.getLock("early").acquire(Duration.ofSeconds(5)))
                .withMessageContaining("not connected to Redis at 127.0.0.1:" + this.server.port())
                .withMessageContaining("not connected since the lock client started")
                .withMessageContaining("refused");
            assertThatExceptionOfType(LockOperationException.class).isThrownBy(() -> client.inspect("early"))
                .withMessageContaining("not connected to Redis");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(OPERATION_TIMEOUT.dividedBy(4));

            this.server.restart();
            long back = System.nanoTime();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(client::isConnected);
            System.out.println("connected " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - back)
                    + " ms after redis-server started");

            RedisLock lock = client.getLock("early");
            LockLease first = lock.acquire(Duration.ofSeconds(1));
            assertThat(first.fencingToken()).isPositive();
            assertThat(client.inspect("early").held()).isTrue();
            // a waiter on another thread is handed the lock by the release: pub/sub works through the late gateway
            CompletableFuture<LockLease> waiter = lock.acquireAsync(Duration.ofSeconds(20)).toCompletableFuture();
            await().atMost(Duration.ofSeconds(10)).until(() -> client.inspect("early").queuedWaiters() == 1);
            first.close();
            try (LockLease second = waiter.get(20, TimeUnit.SECONDS)) {
                assertThat(second.isHeld()).isTrue();
                assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
            }
        }
    }

    @Test
    void closingBeforeRedisIsUpStopsTheAttempts() throws Exception {
        RedisLockClient client = RedisLockClient.createConnectingInBackground(this.redis, options());
        assertThat(connectorThreads()).isPositive();

        client.close();

        await().atMost(Duration.ofSeconds(10)).until(() -> connectorThreads() == 0);
        this.server.restart();
        Thread.sleep(1500); // longer than the longest pause between attempts: a live connector would connect now
        assertThat(otherClients()).isZero();
    }

    /** Connections to the server other than the one asking. */
    private long otherClients() {
        RedisClient probe = RedisClient.create(this.resources, RedisURI.create(this.server.uri()));
        try (var connection = probe.connect()) {
            return connection.sync().clientList().lines().filter((line) -> !line.isBlank()).count() - 1;
        }
        finally {
            probe.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    private static long connectorThreads() {
        return Thread.getAllStackTraces().keySet().stream()
            .filter((thread) -> thread.getName().equals("distlock-connect") && thread.isAlive())
            .count();
    }

    private static LockClientOptions options() {
        return LockClientOptions.builder().operationTimeout(OPERATION_TIMEOUT).build();
    }
}
