package dev.distlock.spring.boot;

import java.util.function.Supplier;

import dev.distlock.testsupport.RedisServer;
import org.testcontainers.containers.GenericContainer;

/**
 * A Testcontainers container that is a redis-server the test support started: Boot's {@code @ServiceConnection}
 * wiring runs on it as on a Docker container, without Docker. Never starts anything itself.
 */
final class LocalRedisContainer extends GenericContainer<LocalRedisContainer> {

    private final Supplier<RedisServer> server;

    /** @param server the server, asked for only once the connection details are read (after the extension began) */
    LocalRedisContainer(Supplier<RedisServer> server) {
        super("redis:7.4");
        this.server = server;
    }

    @Override
    public String getDockerImageName() {
        return "redis:7.4";
    }

    @Override
    public void start() {
    }

    @Override
    public void stop() {
    }

    @Override
    public String getHost() {
        return this.server.get().host();
    }

    @Override
    public Integer getMappedPort(int originalPort) {
        if (originalPort != 6379) {
            throw new IllegalArgumentException("a local Redis container maps only 6379, not " + originalPort);
        }
        return this.server.get().port();
    }
}
