package dev.distlock.core.internal.redis;

import java.util.concurrent.CompletionException;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import org.jspecify.annotations.Nullable;

/**
 * A cluster node as the client's topology names it, for {@link ShardSubscriptions}.
 *
 * @param host host or IP
 * @param port port
 */
record ShardNode(String host, int port) {

    static @Nullable ShardNode of(@Nullable RedisClusterNode node) {
        RedisURI uri = (node != null) ? node.getUri() : null;
        return (uri != null) ? new ShardNode(uri.getHost(), uri.getPort()) : null;
    }

    /** The node of a {@code MOVED <slot> <host>:<port>} error, or null for another failure. */
    static @Nullable ShardNode movedTo(Throwable failure) {
        Throwable ex = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
                : failure;
        String message = ex.getMessage();
        if (message == null || !message.startsWith("MOVED ")) {
            return null;
        }
        String[] parts = message.split(" ");
        int colon = (parts.length == 3) ? parts[2].lastIndexOf(':') : -1;
        if (colon <= 0) {
            return null;
        }
        try {
            return new ShardNode(parts[2].substring(0, colon), Integer.parseInt(parts[2].substring(colon + 1)));
        }
        catch (NumberFormatException notAPort) {
            return null;
        }
    }

    @Override
    public String toString() {
        return this.host + ":" + this.port;
    }
}
