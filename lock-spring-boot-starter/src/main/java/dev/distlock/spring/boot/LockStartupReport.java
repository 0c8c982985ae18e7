package dev.distlock.spring.boot;

import java.time.Duration;
import java.util.Locale;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.RedisLockClient;
import dev.distlock.core.internal.time.DurationFormat;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Writes the starter's one INFO line once every singleton exists: where the locks go (target, topology, which
 * connection), this instance's id, and the defaults every lock call starts from (lease, wait, lost-lease policy,
 * operation timeout, fencing, key prefix, replica acknowledgement, RedLock). Durations read as written
 * ({@code 100ms}, {@code 30s}).
 */
final class LockStartupReport implements SmartInitializingSingleton {

    private static final Logger logger = LoggerFactory.getLogger(LockStartupReport.class);

    private final RedisLockClient client;

    private final DistributedLockProperties properties;

    private final ObjectProvider<LockConnectionDescription> connection;

    LockStartupReport(RedisLockClient client, DistributedLockProperties properties,
            ObjectProvider<LockConnectionDescription> connection) {
        this.client = client;
        this.properties = properties;
        this.connection = connection;
    }

    @Override
    public void afterSingletonsInstantiated() {
        logger.info(line());
    }

    /** The line, without the logger's prefix. */
    String line() {
        LockClientOptions options = this.client.options();
        LockConnectionDescription described = this.connection.getIfAvailable();
        String where = (described != null) ? described.target() + ", " + described.source()
                : this.client.redisTarget() + ", the application's own RedisLockClient bean";
        StringBuilder line = new StringBuilder("Distributed locks on Redis ").append(where)
            .append(this.client.isConnected() ? "" : ", not connected yet")
            .append(": instance ").append(options.instanceId())
            .append(", lease ").append(format(options.watchdogLease()))
            .append(" renewed every ").append(format(options.watchdogLease().dividedBy(3)))
            .append(", wait ").append(format(this.properties.getWaitTime()))
            .append(", lost-lease policy ").append(this.properties.getLostLeasePolicy().name().toLowerCase(Locale.ROOT))
            .append(", operation timeout ").append(format(options.operationTimeout()))
            .append(", fencing ").append(options.fencing() ? "on" : "off")
            .append(", key prefix '").append(options.keyPrefix()).append('\'');
        DistributedLockProperties.ReplicaAcks acks = this.properties.getReplicaAcks();
        if (acks.getCount() > 0) {
            line.append(", replica acks ").append(acks.getCount()).append(" within ")
                .append(format(acks.getTimeout())).append(" (").append(acks.getPolicy().name().toLowerCase(Locale.ROOT))
                .append(')');
        }
        RedLockProperties redlock = this.properties.getRedlock();
        if (redlock.isConfigured()) {
            line.append(", RedLock over ").append(redlock.getNodes().size()).append(" masters");
        }
        return line.toString();
    }

    private static String format(@Nullable Duration duration) {
        return (duration != null) ? DurationFormat.format(duration) : "-";
    }
}
