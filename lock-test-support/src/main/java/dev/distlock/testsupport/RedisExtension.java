package dev.distlock.testsupport;

import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import io.lettuce.core.RedisURI;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;

import dev.distlock.testsupport.SpawnedServers.Kind;

/**
 * JUnit Jupiter extension that gives a test class real redis-server processes.
 *
 * <pre>{@code
 * @RegisterExtension static final RedisExtension redis = RedisExtension.single();
 * @RegisterExtension static final RedisExtension redis = RedisExtension.independent(5);
 * @RegisterExtension static final RedisExtension redis = RedisExtension.withReplicas(2);
 * }</pre>
 *
 * <p>Promises:
 * <ul>
 *   <li>On a {@code static} field, the servers start before the first test of the class (before
 *       {@code @BeforeAll} methods of the class) and are stopped after the last one (after {@code @AfterAll}
 *       methods), also when tests or callbacks fail. {@code @Nested} classes share the outer class's servers.
 *       On an instance field, each test gets fresh servers, stopped after it.</li>
 *   <li>{@link #single()} uses the external Redis named by the environment variable {@value #EXTERNAL_URI_ENV}
 *       instead of spawning one, when that variable is set. Such a Redis cannot be controlled:
 *       {@link #server()} and friends throw {@link UnsupportedOperationException}; tests that inject faults
 *       call {@link #assumeControllable()} first so they are skipped instead.</li>
 *   <li>Accessors throw {@link IllegalStateException} when the servers are not started.</li>
 * </ul>
 * Servers are numbered as in {@link #servers()}: for {@link #withReplicas(int)}, the master is server 0 and
 * replica {@code i} is server {@code i + 1}.
 *
 * <p>{@link ScopedExtension} decides when to start and stop; {@link SpawnedServers} holds what was started.
 */
public final class RedisExtension extends ScopedExtension<RuntimeException> {

    /** Environment variable with the URI of an external Redis for {@link #single()} (e.g. on CI). */
    public static final String EXTERNAL_URI_ENV = "DISTLOCK_TEST_REDIS_URI";

    private final Kind kind;
    private final int count;
    private final RedisServerOptions options;
    private final @Nullable String externalUri;

    private volatile @Nullable SpawnedServers spawned;
    private volatile boolean running;

    private RedisExtension(Kind kind, int count, RedisServerOptions options, @Nullable String externalUri) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1: " + count);
        }
        this.kind = kind;
        this.count = count;
        this.options = Objects.requireNonNull(options, "options");
        this.externalUri = externalUri == null || externalUri.isBlank() ? null : externalUri.trim();
    }

    /**
     * One server with default options, or the external Redis from {@value #EXTERNAL_URI_ENV} if set.
     *
     * @return the extension, to be registered with {@code @RegisterExtension}
     */
    public static RedisExtension single() {
        return single(RedisServerOptions.defaults());
    }

    /**
     * One server with the given options, or the external Redis from {@value #EXTERNAL_URI_ENV} if set (then
     * the options are ignored).
     *
     * @param options extra arguments and time bounds
     * @return the extension, to be registered with {@code @RegisterExtension}
     */
    public static RedisExtension single(RedisServerOptions options) {
        return single(options, System::getenv);
    }

    static RedisExtension single(RedisServerOptions options, UnaryOperator<@Nullable String> env) {
        return new RedisExtension(Kind.SINGLE, 1, options, env.apply(EXTERNAL_URI_ENV));
    }

    /**
     * {@code count} independent servers (no replication), started in parallel, e.g. for RedLock.
     *
     * @param count how many, at least 1
     * @return the extension, to be registered with {@code @RegisterExtension}
     */
    public static RedisExtension independent(int count) {
        return independent(count, RedisServerOptions.defaults());
    }

    /**
     * {@code count} independent servers with the given options, started in parallel.
     *
     * @param count   how many, at least 1
     * @param options extra arguments and time bounds for each server
     * @return the extension, to be registered with {@code @RegisterExtension}
     */
    public static RedisExtension independent(int count, RedisServerOptions options) {
        return new RedisExtension(Kind.INDEPENDENT, count, options, null);
    }

    /**
     * A master plus {@code replicas} replicas, in sync before the first test.
     *
     * @param replicas how many replicas, at least 1
     * @return the extension, to be registered with {@code @RegisterExtension}
     */
    public static RedisExtension withReplicas(int replicas) {
        return withReplicas(replicas, RedisServerOptions.defaults());
    }

    /**
     * A master plus {@code replicas} replicas with the given options, in sync before the first test.
     *
     * @param replicas how many replicas, at least 1
     * @param options  extra arguments and time bounds for every server
     * @return the extension, to be registered with {@code @RegisterExtension}
     */
    public static RedisExtension withReplicas(int replicas, RedisServerOptions options) {
        return new RedisExtension(Kind.REPLICAS, replicas, options, null);
    }

    @Override
    void start() {
        if (externalUri == null) {
            spawned = SpawnedServers.start(kind, count, options);
        }
        running = true;
    }

    @Override
    void stop() {
        SpawnedServers toStop = spawned;
        running = false;
        spawned = null;
        if (toStop != null) {
            toStop.stop();
        }
    }

    /**
     * Whether this extension uses the external Redis from {@value #EXTERNAL_URI_ENV}.
     *
     * @return true if no server was spawned
     */
    public boolean isExternal() {
        return externalUri != null;
    }

    /**
     * Skips (aborts) the calling test when the Redis cannot be controlled, i.e. when it is external.
     * Call it first in tests that stop, pause or restart servers.
     */
    public void assumeControllable() {
        Assumptions.assumeFalse(isExternal(), () -> "the Redis from " + EXTERNAL_URI_ENV
                + " is external and cannot be stopped, paused or restarted");
    }

    /**
     * The URI of the first server (the master for {@link #withReplicas(int)}), or of the external Redis.
     *
     * @return e.g. {@code redis://127.0.0.1:12345}
     */
    public String uri() {
        return uris().get(0);
    }

    /**
     * The URIs of all servers, in the order of {@link #servers()} (just the external one if external).
     *
     * @return an unmodifiable list
     */
    public List<String> uris() {
        requireRunning();
        if (externalUri != null) {
            return List.of(externalUri);
        }
        return spawned().servers().stream().map(RedisServer::uri).collect(Collectors.toUnmodifiableList());
    }

    /**
     * The host of the first server (or the external Redis).
     *
     * @return e.g. {@code 127.0.0.1}
     */
    public String host() {
        return externalUri != null ? external().getHost() : server().host();
    }

    /**
     * The port of the first server (or the external Redis).
     *
     * @return the TCP port
     */
    public int port() {
        return externalUri != null ? external().getPort() : server().port();
    }

    /**
     * The first server (the master for {@link #withReplicas(int)}).
     *
     * @return the server, with its fault controls
     * @throws UnsupportedOperationException if the Redis is external
     */
    public RedisServer server() {
        return server(0);
    }

    /**
     * One server, numbered as in {@link #servers()}.
     *
     * @param index from 0 to {@code servers().size() - 1}
     * @return the server, with its fault controls
     * @throws UnsupportedOperationException if the Redis is external
     */
    public RedisServer server(int index) {
        return servers().get(index);
    }

    /**
     * All servers: the single one, the independent ones, or the master followed by the replicas.
     *
     * @return an unmodifiable list
     * @throws UnsupportedOperationException if the Redis is external
     */
    public List<RedisServer> servers() {
        requireRunning();
        if (externalUri != null) {
            throw new UnsupportedOperationException("The Redis at " + externalUri + " (from " + EXTERNAL_URI_ENV
                    + ") is external and cannot be controlled; call assumeControllable() first to skip this test");
        }
        return spawned().servers();
    }

    /**
     * The master and replicas of an extension made with {@link #withReplicas(int)}.
     *
     * @return the replica set
     * @throws IllegalStateException for other kinds of extension
     */
    public RedisReplicaSet replicaSet() {
        requireRunning();
        RedisReplicaSet set = spawned().replicaSet();
        if (set == null) {
            throw new IllegalStateException("replicaSet() needs RedisExtension.withReplicas(n); this one is " + kind);
        }
        return set;
    }

    /**
     * Deletes every key on every server (on the master for a replica set, then waits up to 5 s for replicas to
     * apply it). Meant for {@code @BeforeEach}.
     *
     * @throws IllegalStateException if a server was left stopped or paused by an earlier test
     */
    public void flushAll() {
        requireRunning();
        if (externalUri != null) {
            LettuceCalls.call(external(), commands -> commands.flushall());
            return;
        }
        spawned().flushAll();
    }

    @Override
    public synchronized String toString() {
        return "RedisExtension[" + kind + (kind == Kind.SINGLE ? "" : " x" + count)
                + (externalUri != null ? ", external " + externalUri : "")
                + (running ? ", running " + spawned : ", not running") + "]";
    }

    private void requireRunning() {
        if (!running) {
            throw new IllegalStateException("RedisExtension is not started: register it with @RegisterExtension on"
                    + " a static field (servers per class) or an instance field (servers per test), and use it"
                    + " only while tests run");
        }
    }

    private SpawnedServers spawned() {
        SpawnedServers current = spawned;
        if (current == null) {
            throw new IllegalStateException("no servers were spawned");
        }
        return current;
    }

    private RedisURI external() {
        return RedisURI.create(Objects.requireNonNull(externalUri));
    }
}
