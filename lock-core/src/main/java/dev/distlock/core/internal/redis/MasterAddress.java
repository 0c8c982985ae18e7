package dev.distlock.core.internal.redis;

import java.util.Locale;

import io.lettuce.core.RedisURI;
import org.jspecify.annotations.Nullable;

/**
 * Where a Sentinel-managed master listens, as the Sentinels report it ({@code SENTINEL MASTER},
 * {@code +switch-master}).
 *
 * @param host the host or IP the Sentinels announce
 * @param port the port
 */
record MasterAddress(String host, int port) {

    /**
     * The addresses in a {@code +switch-master} message ({@code <name> <old-ip> <old-port> <new-ip> <new-port>}), if
     * the message is about {@code masterId}.
     *
     * @return {@code [old, new]}, or null for another master or a message of another shape
     */
    static MasterAddress @Nullable [] switched(String masterId, String message) {
        String[] parts = message.trim().split(" ");
        if (parts.length != 5 || !parts[0].equals(masterId)) {
            return null;
        }
        try {
            return new MasterAddress[] { new MasterAddress(parts[1], Integer.parseInt(parts[2])),
                new MasterAddress(parts[3], Integer.parseInt(parts[4])) };
        }
        catch (NumberFormatException ex) {
            return null;
        }
    }

    /**
     * A direct URI to this address that keeps everything else of the Sentinel URI the application configured:
     * credentials, TLS, database, client name, timeout.
     */
    RedisURI toUri(RedisURI sentinelUri) {
        RedisURI.Builder builder = RedisURI.Builder.redis(this.host, this.port)
            .withAuthentication(sentinelUri)
            .withSsl(sentinelUri)
            .withDatabase(sentinelUri.getDatabase())
            .withTimeout(sentinelUri.getTimeout());
        if (sentinelUri.getClientName() != null) {
            builder.withClientName(sentinelUri.getClientName());
        }
        if (sentinelUri.getLibraryName() != null) {
            builder.withLibraryName(sentinelUri.getLibraryName());
        }
        if (sentinelUri.getLibraryVersion() != null) {
            builder.withLibraryVersion(sentinelUri.getLibraryVersion());
        }
        return builder.build();
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s:%d", this.host, this.port);
    }
}
