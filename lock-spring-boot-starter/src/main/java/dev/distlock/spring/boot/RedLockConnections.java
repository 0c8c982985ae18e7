package dev.distlock.spring.boot;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.util.StringUtils;

/**
 * The Lettuce clients of the RedLock masters ({@code distributed-lock.redlock.nodes}), owned by the starter: one
 * client per master on shared client resources, shut down when the context closes, after the
 * {@link dev.distlock.core.RedLockClient} that uses them (which depends on this bean) has been closed.
 */
final class RedLockConnections implements DisposableBean {

    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(2);

    private static final String PROPERTY = "redlock.nodes";

    private final ClientResources resources;

    private final List<RedisClient> clients;

    RedLockConnections(RedLockProperties properties) {
        List<RedisURI> uris = parse(properties.getNodes());
        this.resources = DefaultClientResources.create();
        List<RedisClient> created = new ArrayList<>(uris.size());
        for (RedisURI uri : uris) {
            RedisClient client = RedisClient.create(this.resources, uri);
            client.setOptions(ClientOptions.builder().timeoutOptions(TimeoutOptions.enabled()).build());
            created.add(client);
        }
        this.clients = List.copyOf(created);
    }

    List<RedisClient> clients() {
        return this.clients;
    }

    @Override
    public void destroy() {
        for (RedisClient client : this.clients) {
            client.shutdown(Duration.ZERO, SHUTDOWN_TIMEOUT);
        }
        this.resources.shutdown(0, SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Parses the masters' URIs.
     *
     * @throws org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException naming
     * {@code distributed-lock.redlock.nodes} if an entry is not a redis:// or rediss:// URI, or a server is listed
     * twice
     */
    static List<RedisURI> parse(List<String> nodes) {
        List<RedisURI> uris = new ArrayList<>(nodes.size());
        Map<String, String> seen = new HashMap<>();
        for (String node : nodes) {
            RedisURI uri = parseOne(node);
            String address = uri.getHost() + ":" + uri.getPort();
            String previous = seen.putIfAbsent(address, node);
            if (previous != null) {
                throw LockOptionsMapper.invalid(PROPERTY, redact(node), "lists " + address + " twice ("
                        + redact(previous) + " and " + redact(node) + "); RedLock needs independent masters,"
                        + " each counted once in the majority");
            }
            uris.add(uri);
        }
        return uris;
    }

    private static RedisURI parseOne(String node) {
        String trimmed = node.trim();
        try {
            if (!StringUtils.hasText(trimmed)) {
                throw new IllegalArgumentException("the entry is empty");
            }
            String scheme = trimmed.substring(0, Math.max(trimmed.indexOf(':'), 0));
            if (!scheme.equals(RedisURI.URI_SCHEME_REDIS) && !scheme.equals(RedisURI.URI_SCHEME_REDIS_SECURE)) {
                throw new IllegalArgumentException("the scheme must be redis or rediss");
            }
            return RedisURI.create(trimmed);
        }
        catch (IllegalArgumentException ex) {
            throw LockOptionsMapper.invalid(PROPERTY, redact(trimmed), "entries must be Redis URIs such as"
                    + " redis://user:password@host:6379, was '" + redact(trimmed) + "': " + ex.getMessage());
        }
    }

    /** The URIs with their credentials masked, for messages. */
    static String redact(String uris) {
        return uris.replaceAll("//[^@/,]*@", "//***@");
    }
}
