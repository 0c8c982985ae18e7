package dev.distlock.testsupport;

import java.util.List;
import java.util.stream.Collectors;

/**
 * K independent redis-server processes (no replication between them), started in parallel, e.g. the N
 * masters of a RedLock setup.
 *
 * <p>Promises: every server answers when {@link #start(int)} returns, each on its own port; if any fails to
 * start, the ones already started are stopped before the exception is thrown. {@link #close()} stops them all,
 * even if stopping one fails.
 */
public final class RedisServers implements AutoCloseable {

    private final List<RedisServer> servers;

    private RedisServers(List<RedisServer> servers) {
        this.servers = List.copyOf(servers);
    }

    /**
     * Starts {@code count} servers in parallel with default options.
     *
     * @param count how many, at least 1
     * @return the running servers
     * @throws RedisServerException if any cannot be started
     */
    public static RedisServers start(int count) {
        return start(count, RedisServerOptions.defaults());
    }

    /**
     * Starts {@code count} servers in parallel, all with the same options.
     *
     * @param count   how many, at least 1
     * @param options extra arguments and time bounds for each server
     * @return the running servers
     * @throws RedisServerException if any cannot be started
     */
    public static RedisServers start(int count, RedisServerOptions options) {
        return new RedisServers(ParallelStart.start(count, index -> RedisServer.start(options)));
    }

    /**
     * All servers, in a fixed order.
     *
     * @return an unmodifiable list
     */
    public List<RedisServer> servers() {
        return servers;
    }

    /**
     * One server.
     *
     * @param index from 0 to {@code size() - 1}
     * @return the server
     */
    public RedisServer get(int index) {
        return servers.get(index);
    }

    /**
     * How many servers there are.
     *
     * @return the count given to {@link #start(int)}
     */
    public int size() {
        return servers.size();
    }

    /**
     * The servers' URIs, in the order of {@link #servers()}.
     *
     * @return e.g. {@code [redis://127.0.0.1:12001, redis://127.0.0.1:15333]}
     */
    public List<String> uris() {
        return servers.stream().map(RedisServer::uri).collect(Collectors.toUnmodifiableList());
    }

    /**
     * Stops every server (see {@link RedisServer#stop()}); idempotent.
     *
     * @throws RedisServerException if a server could not be stopped (the others are stopped anyway)
     */
    @Override
    public void close() {
        Closing.stopAll(servers, null);
    }

    @Override
    public String toString() {
        return "RedisServers" + servers;
    }
}
