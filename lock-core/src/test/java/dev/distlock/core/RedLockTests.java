package dev.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import dev.distlock.testsupport.RedisExtension;
import dev.distlock.testsupport.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

class RedLockTests {

    private static final Duration NODE_TIMEOUT = Duration.ofMillis(200);

    /** Fresh servers per test: tests stop and pause them. */
    @RegisterExtension
    final RedisExtension redis = RedisExtension.independent(5);

    private final List<RedisClient> redisClients = new ArrayList<>();

    private RedLockClient client;

    @BeforeEach
    void setUp() {
        for (String uri : this.redis.uris()) {
            this.redisClients.add(RedisClient.create(RedisURI.create(uri)));
        }
        this.client = RedLockClient.create(this.redisClients,
                LockClientOptions.builder().watchdogLease(LockClients.TEST_WATCHDOG_LEASE).build(), NODE_TIMEOUT);
    }

    @AfterEach
    void tearDown() {
        for (RedisServer server : this.redis.servers()) {
            if (server.isPaused()) {
                server.resume();
            }
        }
        this.client.close();
        this.redisClients.forEach(RedisClient::shutdown);
    }

    @Test
    void acquiresOnAllNodesAndReleasesEverywhere() throws Exception {
        long started = System.nanoTime();
        try (LockLease lease = this.client.getLock("red").acquire(Duration.ZERO)) {
            System.out.println("RedLock acquire on 5 local nodes took "
                    + TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - started) + " us");
            assertThat(keyCount("lock:{red}")).isEqualTo(5);
        }
        assertThat(keyCount("lock:{red}")).isZero();
    }

    @Test
    void stillAcquiresWithTwoNodesStopped() throws Exception {
        this.redis.server(0).stop();
        this.redis.server(1).stop();
        try (LockLease lease = this.client.getLock("red").acquire(Duration.ofSeconds(2))) {
            assertThat(lease.isHeld()).isTrue();
            Thread.sleep(LockClients.TEST_WATCHDOG_LEASE.toMillis());
            assertThat(lease.isHeld()).as("renewed by the majority").isTrue();
        }
    }

    @Test
    void failsFastWithThreeNodesStopped() throws Exception {
        for (int i = 0; i < 3; i++) {
            this.redis.server(i).stop();
        }
        long started = System.nanoTime();
        Optional<LockLease> lease = this.client.getLock("red").tryAcquire(Duration.ZERO);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertThat(lease).isEmpty();
        // One attempt bounded by the node timeout; the allowance covers a busy machine, not a second attempt.
        assertThat(millis).isLessThan(NODE_TIMEOUT.toMillis() + 1500);
        assertThat(keyCount("lock:{red}", 3)).as("partial grants released").isZero();
    }

    @Test
    void partialGrantIsReleasedOnEveryNode() throws Exception {
        for (int i = 0; i < 3; i++) {
            raw(i).set("lock:{red}", "someone-else");
        }
        assertThat(this.client.getLock("red").tryAcquire(Duration.ZERO)).isEmpty();
        assertThat(raw(3).exists("lock:{red}")).isZero();
        assertThat(raw(4).exists("lock:{red}")).isZero();
        for (int i = 0; i < 3; i++) {
            assertThat(raw(i).get("lock:{red}")).isEqualTo("someone-else");
        }
    }

    @Test
    void validityShrinksWhenTwoNodesAreSlow() throws Exception {
        this.redis.server(0).pause();
        this.redis.server(1).pause();
        Duration lease = Duration.ofSeconds(5);
        try (LockLease held = this.client.getLock("red").acquire(Duration.ofSeconds(2), lease)) {
            Duration validity = held.remainingValidity();
            System.out.println("RedLock validity with 2 paused nodes: " + validity.toMillis() + " ms of "
                    + lease.toMillis());
            assertThat(validity).isLessThanOrEqualTo(lease.minus(NODE_TIMEOUT).minusMillis(50));
            assertThat(validity).isPositive();
        }
        finally {
            this.redis.server(0).resume();
            this.redis.server(1).resume();
        }
    }

    @Test
    void lostWhenAMajorityRefusesRenewal() throws Exception {
        LockLease lease = this.client.getLock("red").acquire(Duration.ZERO);
        for (int i = 0; i < 3; i++) {
            raw(i).del("lock:{red}");
        }
        Thread.sleep(LockClients.TEST_WATCHDOG_LEASE.toMillis());
        assertThat(lease.isHeld()).isFalse();
    }

    private long keyCount(String key) {
        return keyCount(key, 0);
    }

    private long keyCount(String key, int fromNode) {
        long count = 0;
        for (int i = fromNode; i < 5; i++) {
            count += raw(i).exists(key);
        }
        return count;
    }

    private io.lettuce.core.api.sync.RedisCommands<String, String> raw(int node) {
        RedisClient redisClient = RedisClient.create(RedisURI.create(this.redis.server(node).uri()));
        this.redisClients.add(redisClient);
        StatefulRedisConnection<String, String> connection = redisClient.connect();
        return connection.sync();
    }
}
