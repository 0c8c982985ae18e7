package dev.distlock.testsupport;

import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * JUnit Jupiter extension that starts a multi-process topology (Sentinel, Cluster) around a test class or test.
 *
 * <pre>{@code
 * @RegisterExtension static final RedisTopologyExtension<RedisSentinelSet> redis = RedisTopologyExtension.sentinel(2);
 * @RegisterExtension static final RedisTopologyExtension<RedisClusterSet> cluster = RedisTopologyExtension.cluster();
 * }</pre>
 *
 * <p>On a {@code static} field the topology lives for the class (started before {@code @BeforeAll} methods,
 * stopped after {@code @AfterAll}), on an instance field for each test; it is stopped also when tests fail.
 * {@link #get()} throws {@link IllegalStateException} outside that time.
 *
 * @param <T> the topology type
 */
public final class RedisTopologyExtension<T extends AutoCloseable> extends ScopedExtension<Exception> {

    private final String description;
    private final Supplier<T> starter;
    private volatile @Nullable T running;

    private RedisTopologyExtension(String description, Supplier<T> starter) {
        this.description = description;
        this.starter = starter;
    }

    /** A master, {@code replicas} replicas and three Sentinels ({@link RedisSentinelSet#start(int)}). */
    public static RedisTopologyExtension<RedisSentinelSet> sentinel(int replicas) {
        return new RedisTopologyExtension<>("Sentinel with " + replicas + " replicas",
                () -> RedisSentinelSet.start(replicas));
    }

    /** A Redis Cluster of 3 masters and 3 replicas ({@link RedisClusterSet#start()}). */
    public static RedisTopologyExtension<RedisClusterSet> cluster() {
        return new RedisTopologyExtension<>("Cluster 3+3", RedisClusterSet::start);
    }

    /** Any topology: {@code starter} starts it, {@link AutoCloseable#close()} stops it. */
    public static <T extends AutoCloseable> RedisTopologyExtension<T> of(String description, Supplier<T> starter) {
        return new RedisTopologyExtension<>(description, starter);
    }

    /**
     * The running topology.
     *
     * @throws IllegalStateException when it is not started
     */
    public T get() {
        T current = running;
        if (current == null) {
            throw new IllegalStateException(description + " is not running: register the extension with"
                    + " @RegisterExtension and use it only while tests run");
        }
        return current;
    }

    @Override
    void start() {
        running = starter.get();
    }

    @Override
    void stop() throws Exception {
        T current = running;
        running = null;
        if (current != null) {
            current.close();
        }
    }

    @Override
    public String toString() {
        return "RedisTopologyExtension[" + description + (running != null ? ", running" : "") + "]";
    }
}
