package dev.distlock.spring.boot.actuate;

import java.time.Duration;

import dev.distlock.core.HeldLease;
import dev.distlock.core.LockException;
import dev.distlock.core.RedisLockClient;
import dev.distlock.core.internal.DurationFormat;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code distributedLock} health contributor. DOWN when the lock client's own Redis connection (the application's,
 * or the dedicated {@code distributed-lock.redis.*} one) is not connected or does not answer one inspection round
 * trip; UP otherwise, with details: the Redis target, this instance's id, the leases held, the watchdog lag (how far
 * the most overdue renewal is behind its schedule; above a third of the lease, leases are at risk) and the leases
 * lost within the last window. Part of the readiness group unless {@code distributed-lock.health.readiness=false} (see
 * {@link ReadinessGroupDefaults}).
 */
public class DistributedLockHealthIndicator implements HealthIndicator {

    /** A name no lock uses, inspected to prove a round trip. */
    static final String PROBE_NAME = "distributed-lock-health-probe";

    private final RedisLockClient client;

    private final RecentLeaseLosses losses;

    DistributedLockHealthIndicator(RedisLockClient client, RecentLeaseLosses losses) {
        this.client = client;
        this.losses = losses;
    }

    @Override
    public Health health() {
        Health.Builder builder = new Health.Builder()
            .withDetail("redis", this.client.redisTarget())
            .withDetail("instanceId", this.client.instanceId());
        if (!this.client.isConnected()) {
            return builder.down().withDetail("error", "not connected to Redis at " + this.client.redisTarget()).build();
        }
        try {
            this.client.inspect(PROBE_NAME);
        }
        catch (LockException ex) {
            return builder.down().withDetail("error", ex.getMessage()).build();
        }
        Duration lag = Duration.ZERO;
        int held = 0;
        for (HeldLease lease : this.client.heldLeases()) {
            held++;
            if (lease.watchdogRenewed()) {
                Duration behind = lease.sinceRenewal().minus(lease.leaseTime().dividedBy(3));
                lag = (behind.compareTo(lag) > 0) ? behind : lag;
            }
        }
        builder.up()
            .withDetail("heldLeases", held)
            .withDetail("watchdogLag", DurationFormat.format(lag))
            .withDetail("leasesLostRecently", this.losses.count())
            .withDetail("lostWindow", DurationFormat.format(this.losses.window()));
        RecentLeaseLosses.Loss last = this.losses.last();
        if (last != null) {
            builder.withDetail("lastLoss", last.name() + " (" + last.reason() + ") at " + last.at());
        }
        return builder.build();
    }
}
