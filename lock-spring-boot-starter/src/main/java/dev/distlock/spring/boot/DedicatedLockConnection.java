package dev.distlock.spring.boot;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.RedisLockClient;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.util.StringUtils;

/**
 * The Lettuce client of a dedicated lock connection ({@code distributed-lock.redis.*}), owned by the starter: a
 * {@link RedisClient} for a standalone or Sentinel-managed Redis, a {@link RedisClusterClient} for a Redis Cluster
 * ({@code cluster.nodes}). Created from the properties and shut down when the context closes, after the lock client
 * that uses it (which depends on this bean) has been closed.
 */
final class DedicatedLockConnection implements DisposableBean {

    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(2);

    private final AbstractRedisClient client;

    private final ClientResources resources;

    private final String description;

    DedicatedLockConnection(LockRedisProperties properties) {
        this(properties, Duration.ofSeconds(1), null);
    }

    /**
     * @param reconnectMaxDelay longest delay between reconnect attempts (Lettuce's default is 30 s)
     * @param sslBundles the application's SSL bundles, for {@code ssl.bundle}; null when there are none
     */
    DedicatedLockConnection(LockRedisProperties properties, Duration reconnectMaxDelay,
            @Nullable SslBundles sslBundles) {
        LockOptionsMapper.checkRedis(properties);
        @Nullable SslOptions ssl = sslOptions(properties, sslBundles);
        this.resources = DefaultClientResources.builder()
            .reconnectDelay(reconnectDelay(reconnectMaxDelay))
            .build();
        if (properties.isCluster()) {
            RedisClusterClient cluster = RedisClusterClient.create(this.resources, clusterUris(properties));
            cluster.setOptions(clusterClientOptions(properties, ssl));
            this.client = cluster;
            this.description = "the dedicated distributed-lock.redis.cluster.* connection";
        }
        else {
            RedisClient redis = RedisClient.create(this.resources, redisUri(properties));
            redis.setOptions(clientOptions(properties, ssl));
            this.client = redis;
            this.description = "the dedicated distributed-lock.redis.* connection";
        }
    }

    AbstractRedisClient client() {
        return this.client;
    }

    /**
     * A lock client on this connection.
     *
     * @param requireRedis whether Redis must be reachable now; false connects in the background
     */
    RedisLockClient createLockClient(LockClientOptions options, boolean requireRedis) {
        return RedisLockClients.create(this.client, options, this.description, requireRedis);
    }

    @Override
    public void destroy() {
        try {
            this.client.shutdown(Duration.ZERO, SHUTDOWN_TIMEOUT);
        }
        finally {
            this.resources.shutdown(0, SHUTDOWN_TIMEOUT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        }
    }

    /** Lettuce's exponential back-off starting at 10 ms, capped at {@code max}. */
    static Delay reconnectDelay(Duration max) {
        Duration lower = Duration.ofMillis(Math.min(10, max.toMillis()));
        return Delay.exponential(lower, max, 2, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    static RedisURI redisUri(LockRedisProperties properties) {
        RedisURI.Builder builder;
        String url = properties.getUrl();
        LockRedisProperties.Sentinel sentinel = properties.getSentinel();
        if (StringUtils.hasText(url)) {
            builder = RedisURI.builder(parseUrl(url));
        }
        else if (StringUtils.hasText(sentinel.getMaster())) {
            builder = RedisURI.builder().withSentinelMasterId(sentinel.getMaster());
            for (String node : sentinel.getNodes()) {
                builder.withSentinel(sentinelUri(node, sentinel, properties.getSsl().isEnabled()));
            }
            authenticate(builder, properties.getUsername(), properties.getPassword());
            builder.withDatabase(properties.getDatabase());
        }
        else {
            builder = RedisURI.Builder.redis(String.valueOf(properties.getHost()), properties.getPort());
            authenticate(builder, properties.getUsername(), properties.getPassword());
            builder.withDatabase(properties.getDatabase());
        }
        return withConnectionSettings(builder, properties).build();
    }

    /** TLS, timeout and client name, the same for every node of every topology. */
    private static RedisURI.Builder withConnectionSettings(RedisURI.Builder builder, LockRedisProperties properties) {
        if (properties.getSsl().isEnabled()) {
            builder.withSsl(true);
        }
        if (properties.getTimeout() != null) {
            builder.withTimeout(properties.getTimeout());
        }
        if (StringUtils.hasText(properties.getClientName())) {
            builder.withClientName(properties.getClientName());
        }
        return builder;
    }

    private static RedisURI parseUrl(String url) {
        try {
            RedisURI uri = RedisURI.create(url);
            String scheme = url.substring(0, Math.max(url.indexOf(':'), 0));
            if (!scheme.equals(RedisURI.URI_SCHEME_REDIS) && !scheme.equals(RedisURI.URI_SCHEME_REDIS_SECURE)) {
                throw new IllegalArgumentException("the scheme must be redis or rediss (for Sentinel use"
                        + " distributed-lock.redis.sentinel.*)");
            }
            return uri;
        }
        catch (IllegalArgumentException ex) {
            throw LockOptionsMapper.invalid("redis.url", redact(url),
                    "is not a valid Redis URL such as redis://user:password@host:6379/0: " + ex.getMessage());
        }
    }

    private static RedisURI sentinelUri(String node, LockRedisProperties.Sentinel sentinel, boolean ssl) {
        RedisURI.Builder builder = hostAndPort("redis.sentinel.nodes", node);
        authenticate(builder, sentinel.getUsername(), sentinel.getPassword());
        if (ssl) {
            builder.withSsl(true);
        }
        return builder.build();
    }

    static List<RedisURI> clusterUris(LockRedisProperties properties) {
        List<RedisURI> uris = new ArrayList<>();
        for (String node : properties.getCluster().getNodes()) {
            RedisURI.Builder builder = hostAndPort("redis.cluster.nodes", node);
            authenticate(builder, properties.getUsername(), properties.getPassword());
            uris.add(withConnectionSettings(builder, properties).build());
        }
        return uris;
    }

    private static RedisURI.Builder hostAndPort(String property, String node) {
        int colon = node.lastIndexOf(':');
        int port;
        try {
            port = Integer.parseInt(node.substring(colon + 1).trim());
        }
        catch (NumberFormatException | IndexOutOfBoundsException ex) {
            port = -1;
        }
        if (colon <= 0 || port < 1 || port > 65535) {
            throw LockOptionsMapper.invalid(property, node, "entries must be \"host:port\", was \"" + node + "\"");
        }
        return RedisURI.Builder.redis(node.substring(0, colon).trim(), port);
    }

    private static void authenticate(RedisURI.Builder builder, @Nullable String username, @Nullable String password) {
        if (password == null) {
            return;
        }
        if (StringUtils.hasText(username)) {
            builder.withAuthentication(username, password);
        }
        else {
            builder.withPassword(password);
        }
    }

    /** Lettuce's SSL options from the named bundle (trust and key managers, ciphers, protocols), or null. */
    private static @Nullable SslOptions sslOptions(LockRedisProperties properties,
            @Nullable SslBundles sslBundles) {
        String name = properties.getSsl().getBundle();
        if (!StringUtils.hasText(name)) {
            return null;
        }
        if (sslBundles == null) {
            throw LockOptionsMapper.invalid("redis.ssl.bundle", name, "names an SSL bundle, but the"
                    + " application has none: define it under spring.ssl.bundle.*");
        }
        SslBundle bundle = sslBundles.getBundle(name);
        SslOptions.Builder builder = SslOptions.builder()
            .keyManager(bundle.getManagers().getKeyManagerFactory())
            .trustManager(bundle.getManagers().getTrustManagerFactory());
        if (bundle.getOptions().getCiphers() != null) {
            builder.cipherSuites(bundle.getOptions().getCiphers());
        }
        if (bundle.getOptions().getEnabledProtocols() != null) {
            builder.protocols(bundle.getOptions().getEnabledProtocols());
        }
        return builder.build();
    }

    private static ClientOptions clientOptions(LockRedisProperties properties, @Nullable SslOptions ssl) {
        ClientOptions.Builder builder = ClientOptions.builder().timeoutOptions(TimeoutOptions.enabled());
        if (ssl != null) {
            builder.sslOptions(ssl);
        }
        if (properties.getConnectTimeout() != null) {
            builder.socketOptions(SocketOptions.builder().connectTimeout(properties.getConnectTimeout()).build());
        }
        return builder.build();
    }

    private static ClusterClientOptions clusterClientOptions(LockRedisProperties properties,
            @Nullable SslOptions ssl) {
        ClusterClientOptions.Builder builder = ClusterClientOptions.builder()
            .timeoutOptions(TimeoutOptions.enabled());
        if (ssl != null) {
            builder.sslOptions(ssl);
        }
        if (properties.getConnectTimeout() != null) {
            builder.socketOptions(SocketOptions.builder().connectTimeout(properties.getConnectTimeout()).build());
        }
        Integer maxRedirects = properties.getCluster().getMaxRedirects();
        if (maxRedirects != null) {
            builder.maxRedirects(maxRedirects);
        }
        return builder.build();
    }

    private static String redact(String url) {
        return url.replaceFirst("//[^@/]*@", "//***@");
    }
}
