package dev.distlock.core;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/** Lettuce clients, lock clients and a raw command connection for one test, all closed by {@link #close()}. */
final class LockClients implements AutoCloseable {

    /** Short leases so watchdog behaviour shows within seconds: renewal every 500 ms. */
    static final Duration TEST_WATCHDOG_LEASE = Duration.ofMillis(1500);

    private final String uri;

    private final Deque<AutoCloseable> resources = new ArrayDeque<>();

    LockClients(String uri) {
        this.uri = uri;
    }

    RedisLockClient create() {
        return create(LockClientOptions.builder().watchdogLease(TEST_WATCHDOG_LEASE).build());
    }

    RedisLockClient create(LockClientOptions options) {
        RedisClient redis = RedisClient.create(RedisURI.create(this.uri));
        this.resources.push(redis::shutdown);
        RedisLockClient client = RedisLockClient.create(redis, options);
        this.resources.push(client);
        return client;
    }

    /** A Lettuce client on the test's server with {@code options}, shut down by {@link #close()}. */
    RedisClient lettuce(ClientOptions options) {
        RedisClient redis = RedisClient.create(RedisURI.create(this.uri));
        redis.setOptions(options);
        this.resources.push(redis::shutdown);
        return redis;
    }

    /** A lock client over {@code redis}, closed by {@link #close()}. */
    RedisLockClient create(RedisClient redis, LockClientOptions options) {
        RedisLockClient client = RedisLockClient.create(redis, options);
        this.resources.push(client);
        return client;
    }

    /** A plain connection for inspecting and damaging Redis state behind the locks' back. */
    RedisCommands<String, String> raw() {
        RedisClient redis = RedisClient.create(RedisURI.create(this.uri));
        this.resources.push(redis::shutdown);
        StatefulRedisConnection<String, String> connection = redis.connect();
        this.resources.push(connection);
        return connection.sync();
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        while (!this.resources.isEmpty()) {
            try {
                this.resources.pop().close();
            }
            catch (Exception ex) {
                failure = (failure == null) ? new IllegalStateException("Closing test clients failed", ex) : failure;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
