package dev.distlock.test.redis;

import dev.distlock.testsupport.RedisServer;

/**
 * A real {@code redis-server} (the 7.0 binary bundled by {@code org.signal:embedded-redis}) on a free loopback port,
 * without persistence or password. Started by {@link EmbeddedRedisLocks} and {@link AutoConfigureEmbeddedRedis};
 * a JVM shutdown hook kills it if a test run ends without stopping it.
 */
public final class EmbeddedRedis implements AutoCloseable {

    private final RedisServer server;

    private EmbeddedRedis(RedisServer server) {
        this.server = server;
    }

    /**
     * Starts a server and returns once it answers.
     *
     * @throws dev.distlock.testsupport.RedisServerException if it cannot be started; the message ends with its log
     */
    public static EmbeddedRedis start() {
        return new EmbeddedRedis(RedisServer.start());
    }

    /** {@code 127.0.0.1}. */
    public String host() {
        return this.server.host();
    }

    /** The port, fixed for the server's life. */
    public int port() {
        return this.server.port();
    }

    /** {@code redis://127.0.0.1:<port>}. */
    public String uri() {
        return this.server.uri();
    }

    /** Whether the process is running. */
    public boolean isRunning() {
        return this.server.isRunning();
    }

    /** Stops the process and deletes its directory; idempotent. */
    public void stop() {
        this.server.stop();
    }

    @Override
    public void close() {
        stop();
    }

    @Override
    public String toString() {
        return "EmbeddedRedis[" + uri() + "]";
    }
}
