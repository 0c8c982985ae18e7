package dev.distlock.reliability;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.RedisLockClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.internal.HostAndPort;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.MappingSocketAddressResolver;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Lettuce clients, lock clients and raw connections for one test, all closed by {@link #close()} in reverse order.
 *
 * <p>All clients share one {@link ClientResources} whose reconnect delay grows from 10 ms to at most 500 ms (Lettuce's
 * default grows to 30 s), the setting an application that wants fast recovery after a failover would choose.
 */
final class Clients implements AutoCloseable, AfterEachCallback {

    /** Watchdog lease of the fault tests: renewed every 500 ms, so loss shows within about a second. */
    static final Duration LEASE = Duration.ofMillis(1500);

    private final Deque<AutoCloseable> resources = new ArrayDeque<>();

    private final ClientResources shared;

    Clients() {
        this.shared = resources(DefaultClientResources.builder());
    }

    private ClientResources resources(ClientResources.Builder builder) {
        ClientResources built = builder.ioThreadPoolSize(2).computationThreadPoolSize(2)
                .reconnectDelay(Delay.exponential(Duration.ofMillis(10), Duration.ofMillis(500), 2,
                        TimeUnit.MILLISECONDS))
                .build();
        this.resources.push(() -> built.shutdown(0, 2, TimeUnit.SECONDS).get(5, TimeUnit.SECONDS));
        return built;
    }

    /** Short leases, short timeouts and back-off, fencing on. */
    static LockClientOptions.Builder fastOptions() {
        return LockClientOptions.builder().watchdogLease(LEASE).operationTimeout(Duration.ofSeconds(1))
                .maxBackoff(Duration.ofMillis(500));
    }

    /** A Lettuce client for a {@code redis://} or {@code redis-sentinel://} URI (command timeout 2 s). */
    RedisClient redisClient(String uri) {
        return redisClient(uri, Duration.ofSeconds(2));
    }

    /** A Lettuce client whose own command timeout is {@code commandTimeout} (Lettuce's default is 60 s). */
    RedisClient redisClient(String uri, Duration commandTimeout) {
        RedisURI parsed = RedisURI.create(uri);
        parsed.setTimeout(commandTimeout);
        RedisClient client = RedisClient.create(this.shared, parsed);
        client.setOptions(ClientOptions.builder().build());
        this.resources.push(() -> client.shutdown(Duration.ZERO, Duration.ofSeconds(2)));
        return client;
    }

    /**
     * Like {@link #redisClient(String)}, on resources of its own whose address resolver sends every connection to
     * loopback port {@code fromPort} to {@code toPort} instead, e.g. a {@code FaultProxy} in front of a server that
     * the Sentinels announce by its own address.
     */
    RedisClient redisClientRerouting(String uri, int fromPort, int toPort) {
        Function<HostAndPort, HostAndPort> reroute = (address) -> (address.getPort() == fromPort)
                ? HostAndPort.of(address.getHostText(), toPort) : address;
        ClientResources rerouting = resources(DefaultClientResources.builder()
                .socketAddressResolver(MappingSocketAddressResolver.create(reroute)));
        RedisURI parsed = RedisURI.create(uri);
        parsed.setTimeout(Duration.ofSeconds(2));
        RedisClient client = RedisClient.create(rerouting, parsed);
        client.setOptions(ClientOptions.builder().build());
        this.resources.push(() -> client.shutdown(Duration.ZERO, Duration.ofSeconds(2)));
        return client;
    }

    RedisLockClient lockClient(String uri) {
        return lockClient(uri, fastOptions().build());
    }

    RedisLockClient lockClient(String uri, LockClientOptions options) {
        return lockClient(redisClient(uri), options);
    }

    RedisLockClient lockClient(RedisClient redisClient, LockClientOptions options) {
        RedisLockClient client = RedisLockClient.create(redisClient, options);
        this.resources.push(client);
        return client;
    }

    /** A Lettuce Cluster client over seed URIs, refreshing its topology on MOVED/ASK and failures. */
    @SuppressWarnings("deprecation") // adaptive refresh on MOVED/ASK and reconnects is what a fault test wants
    RedisClusterClient clusterClient(List<String> seeds) {
        RedisClusterClient client = RedisClusterClient.create(this.shared,
                seeds.stream().map(RedisURI::create).collect(Collectors.toList()));
        client.setOptions(ClusterClientOptions.builder()
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                        .enableAllAdaptiveRefreshTriggers()
                        .enablePeriodicRefresh(Duration.ofSeconds(1))
                        .build())
                .build());
        this.resources.push(() -> client.shutdown(Duration.ZERO, Duration.ofSeconds(2)));
        return client;
    }

    RedisLockClient clusterLockClient(List<String> seeds, LockClientOptions options) {
        RedisLockClient client = RedisLockClient.create(clusterClient(seeds), options);
        this.resources.push(client);
        return client;
    }

    /** A plain connection for inspecting and damaging Redis state behind the locks' back. */
    RedisCommands<String, String> raw(String uri) {
        RedisClient client = redisClient(uri);
        StatefulRedisConnection<String, String> connection = client.connect();
        this.resources.push(connection);
        return connection.sync();
    }

    /** Closes everything after the test, when registered as an extension ({@code @RegisterExtension}). */
    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        close();
    }

    @Override
    public void close() throws Exception {
        Exception failure = null;
        while (!this.resources.isEmpty()) {
            try {
                this.resources.pop().close();
            }
            catch (Exception ex) {
                failure = (failure == null) ? ex : failure;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
