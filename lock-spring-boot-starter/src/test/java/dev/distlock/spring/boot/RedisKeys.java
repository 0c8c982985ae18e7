package dev.distlock.spring.boot;

import java.util.List;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

/** Reads a test Redis directly, to see which server a lock was written to. */
final class RedisKeys {

    private RedisKeys() {
    }

    static List<String> keys(String uri, String pattern) {
        RedisClient client = RedisClient.create(uri);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return connection.sync().keys(pattern);
        }
        finally {
            client.shutdown();
        }
    }

    static String clientList(String uri) {
        RedisClient client = RedisClient.create(uri);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return connection.sync().clientList();
        }
        finally {
            client.shutdown();
        }
    }
}
