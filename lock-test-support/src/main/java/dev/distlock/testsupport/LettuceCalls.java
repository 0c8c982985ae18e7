package dev.distlock.testsupport;

import java.time.Duration;
import java.util.function.Function;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import io.lettuce.core.sentinel.api.sync.RedisSentinelCommands;
import io.lettuce.core.resource.DefaultClientResources;
import org.jspecify.annotations.Nullable;

/**
 * Runs a few synchronous commands on a short-lived Lettuce connection that never reconnects by itself.
 * Event loops are shared by all calls in the JVM (daemon threads), so a call costs one TCP connection.
 */
final class LettuceCalls {

    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

    private static @Nullable ClientResources resources;

    private LettuceCalls() {
    }

    static RedisURI uriOf(RedisServer server) {
        RedisURI.Builder builder = RedisURI.builder().withHost(server.host()).withPort(server.port())
                .withTimeout(COMMAND_TIMEOUT);
        server.options().password().ifPresent(builder::withPassword);
        return builder.build();
    }

    static <T> T call(RedisURI uri, Function<RedisCommands<String, String>, T> body) {
        RedisClient client = RedisClient.create(resources(), uri);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(false)
                .socketOptions(SocketOptions.builder().connectTimeout(CONNECT_TIMEOUT).build())
                .build());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return body.apply(connection.sync());
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    /** Like {@link #call} on a Sentinel's own command set ({@code SENTINEL ...}). */
    static <T> T callSentinel(RedisURI uri, Function<RedisSentinelCommands<String, String>, T> body) {
        RedisClient client = RedisClient.create(resources(), uri);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(false)
                .socketOptions(SocketOptions.builder().connectTimeout(CONNECT_TIMEOUT).build())
                .build());
        try (StatefulRedisSentinelConnection<String, String> connection = client.connectSentinel()) {
            return body.apply(connection.sync());
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    private static synchronized ClientResources resources() {
        ClientResources shared = resources;
        if (shared == null) {
            shared = DefaultClientResources.builder().ioThreadPoolSize(2).computationThreadPoolSize(2).build();
            resources = shared;
        }
        return shared;
    }
}
