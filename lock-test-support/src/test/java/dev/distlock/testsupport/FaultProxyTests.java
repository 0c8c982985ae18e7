package dev.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FaultProxyTests {

    private static RedisServer server;

    private FaultProxy proxy;
    private RedisClient client;

    @BeforeAll
    static void startServer() {
        server = RedisServer.start();
    }

    @AfterAll
    static void stopServer() {
        server.stop();
        Processes.assertNoneLeft();
    }

    @BeforeEach
    void startProxy() {
        proxy = FaultProxy.start(server);
        RedisURI uri = RedisURI.create(proxy.uri());
        uri.setTimeout(Duration.ofMillis(500));
        client = RedisClient.create(uri);
    }

    @AfterEach
    void stopProxy() {
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        proxy.close();
    }

    @Test
    void passesTrafficUnchanged() {
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> redis = connection.sync();
            redis.set("k", "v");
            assertThat(redis.get("k")).isEqualTo("v");
            assertThat(proxy.acceptedConnections()).isEqualTo(1);
            assertThat(proxy.port()).isNotEqualTo(server.port());
        }
    }

    @Test
    void delaysEachDirectionByAboutTheConfiguredTime() {
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> redis = connection.sync();
            redis.ping();
            proxy.delay(Duration.ofMillis(100), Duration.ofMillis(20));
            long start = System.nanoTime();
            redis.ping();
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(millis).isBetween(160L, 450L);
            proxy.pass();
            start = System.nanoTime();
            redis.ping();
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(100L);
        }
    }

    @Test
    void blackholeHoldsTrafficAndPassReleasesIt() {
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> redis = connection.sync();
            redis.ping();
            proxy.blackhole();
            var pending = connection.async().set("held", "1");
            assertThatThrownBy(pending::get).hasCauseInstanceOf(RedisCommandTimeoutException.class);
            assertThat(TestRedis.get(server, "held")).isNull();
            proxy.pass();
            assertThat(redis.ping()).isEqualTo("PONG");
            assertThat(TestRedis.get(server, "held")).isEqualTo("1");
        }
    }

    @Test
    void halfOpenForwardsRequestsButDropsReplies() {
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> redis = connection.sync();
            redis.ping();
            proxy.halfOpen();
            assertThatThrownBy(() -> redis.set("half", "open")).isInstanceOf(RedisCommandTimeoutException.class);
            assertThat(TestRedis.get(server, "half")).isEqualTo("open");
            assertThat(proxy.droppedReplyBytes()).isPositive();
            proxy.pass();
            assertThat(proxy.resetAll()).isEqualTo(1);
        }
    }

    @Test
    void resetClosesConnectionsAndClientsReconnect() {
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> redis = connection.sync();
            redis.ping();
            assertThat(proxy.resetAll()).isEqualTo(1);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            String answer = null;
            while (answer == null && System.nanoTime() < deadline) {
                try {
                    answer = redis.ping();
                } catch (RuntimeException e) {
                    Sleeps.sleep(Duration.ofMillis(20));
                }
            }
            assertThat(answer).isEqualTo("PONG");
            assertThat(proxy.acceptedConnections()).isEqualTo(2);
            assertThat(proxy.resetConnections()).isEqualTo(1);
        }
    }

    @Test
    void blackholeSubscribersHoldsOnlyPubSubConnections() throws Exception {
        client.setOptions(ClientOptions.builder().build());
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        try (StatefulRedisConnection<String, String> connection = client.connect();
                StatefulRedisPubSubConnection<String, String> pubSub = client.connectPubSub()) {
            pubSub.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    received.add(message);
                }
            });
            proxy.blackholeSubscribers();
            pubSub.async().subscribe("wake");
            assertThat(connection.sync().set("flowing", "1")).isEqualTo("OK");
            Thread.sleep(200);
            assertThat(publishCount("1")).as("subscribers the held subscribe made").isZero();

            proxy.pass();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (publishCount("2") == 0 && System.nanoTime() - deadline < 0) {
                Thread.sleep(20);
            }
            assertThat(received.poll(2, TimeUnit.SECONDS)).isEqualTo("2");
            assertThat(TestRedis.get(server, "flowing")).isEqualTo("1");
        }
    }

    @Test
    void dropsPubSubDeliveriesButKeepsSubscriptionsWorking() throws Exception {
        client.setOptions(ClientOptions.builder().build());
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        try (StatefulRedisPubSubConnection<String, String> pubSub = client.connectPubSub()) {
            pubSub.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    received.add(message);
                }
            });
            pubSub.sync().subscribe("wake");
            publish("1");
            assertThat(received.poll(2, TimeUnit.SECONDS)).isEqualTo("1");

            proxy.dropPubSubMessages(true);
            publish("2");
            pubSub.sync().subscribe("other");
            assertThat(received.poll(300, TimeUnit.MILLISECONDS)).isNull();
            assertThat(proxy.droppedPubSubMessages()).isEqualTo(1);

            proxy.dropPubSubMessages(false);
            publish("3");
            assertThat(received.poll(2, TimeUnit.SECONDS)).isEqualTo("3");
        }
    }

    private static long publishCount(String message) {
        return LettuceCalls.call(LettuceCalls.uriOf(server), redis -> redis.publish("wake", message));
    }

    private static void publish(String message) {
        LettuceCalls.call(LettuceCalls.uriOf(server), redis -> redis.publish("wake", message));
    }
}
