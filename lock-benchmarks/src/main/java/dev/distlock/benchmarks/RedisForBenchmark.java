package dev.distlock.benchmarks;

import dev.distlock.testsupport.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;

/** One real redis-server and a Lettuce client for a benchmark trial; {@link #close()} stops both. */
final class RedisForBenchmark implements AutoCloseable {

    private final RedisServer server;

    private final RedisClient client;

    RedisForBenchmark() {
        this.server = RedisServer.start();
        this.client = RedisClient.create(RedisURI.create(this.server.uri()));
    }

    RedisClient client() {
        return this.client;
    }

    RedisClient newClient() {
        return RedisClient.create(RedisURI.create(this.server.uri()));
    }

    @Override
    public void close() {
        this.client.shutdown();
        this.server.stop();
    }
}
