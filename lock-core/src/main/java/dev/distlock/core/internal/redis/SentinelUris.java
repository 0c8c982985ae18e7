package dev.distlock.core.internal.redis;

import java.lang.reflect.Field;
import java.util.Optional;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the Sentinel {@link RedisURI} a {@link RedisClient} was created with. Lettuce keeps a client's default URI
 * private and offers no getter, and applications (and Spring Boot) hand the lock client only the {@link RedisClient},
 * so it is read reflectively. Where that is refused (a module system that does not open Lettuce), the gateway behaves
 * as for a standalone URI and Lettuce alone follows failovers, on reconnect; a WARN log says so.
 */
final class SentinelUris {

    private static final Logger logger = LoggerFactory.getLogger(SentinelUris.class);

    private SentinelUris() {
    }

    /** The client's default URI if it names Sentinels and a master; empty for a standalone URI. */
    static Optional<RedisURI> of(RedisClient client) {
        RedisURI uri;
        try {
            Field field = RedisClient.class.getDeclaredField("redisURI");
            field.setAccessible(true);
            uri = (RedisURI) field.get(client);
        }
        catch (ReflectiveOperationException | RuntimeException ex) {
            logger.warn("Cannot read the RedisURI of the Lettuce RedisClient ({}); if it is a Sentinel URI, locks "
                    + "follow a master switch only when Lettuce reconnects, not at the Sentinels' announcement", ex
                .toString());
            return Optional.empty();
        }
        if (uri == null || uri.getSentinels().isEmpty() || uri.getSentinelMasterId() == null) {
            return Optional.empty();
        }
        return Optional.of(uri);
    }
}
