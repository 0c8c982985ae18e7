package dev.distlock.core.internal.redis;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;

/**
 * Where a Lettuce client is configured to connect, for messages written before any connection exists:
 * {@code host:port}, {@code Sentinel master 'm' via s1:26379,s2:26379} or {@code Cluster seeds r1:6379,r2:6379};
 * never credentials. Lettuce keeps these URIs private, so they are read reflectively (like {@link SentinelUris});
 * where that is refused the answer is "Redis".
 */
final class ClientTargets {

    private ClientTargets() {
    }

    /** The configured target of {@code client}. */
    static String describe(AbstractRedisClient client) {
        try {
            if (client instanceof RedisClient) {
                RedisURI uri = (RedisURI) read(RedisClient.class, "redisURI", client);
                if (uri == null) {
                    return "Redis";
                }
                if (!uri.getSentinels().isEmpty() && uri.getSentinelMasterId() != null) {
                    return "Sentinel master '" + uri.getSentinelMasterId() + "' via " + hosts(uri.getSentinels());
                }
                return uri.getHost() + ":" + uri.getPort();
            }
            if (client instanceof RedisClusterClient) {
                Object uris = read(RedisClusterClient.class, "initialUris", client);
                if (uris instanceof Iterable<?> seeds) {
                    List<RedisURI> list = new ArrayList<>();
                    seeds.forEach((seed) -> list.add((RedisURI) seed));
                    return "Cluster seeds " + hosts(list);
                }
            }
        }
        catch (ReflectiveOperationException | RuntimeException ex) {
            // not opened to us: the messages say "Redis"
        }
        return "Redis";
    }

    private static Object read(Class<?> type, String name, Object target) throws ReflectiveOperationException {
        Field field = type.getDeclaredField(name);
        field.setAccessible(true);
        return field.get(target);
    }

    private static String hosts(List<RedisURI> uris) {
        StringBuilder out = new StringBuilder();
        for (RedisURI uri : uris) {
            out.append((out.length() > 0) ? "," : "").append(uri.getHost()).append(':').append(uri.getPort());
        }
        return out.toString();
    }
}
