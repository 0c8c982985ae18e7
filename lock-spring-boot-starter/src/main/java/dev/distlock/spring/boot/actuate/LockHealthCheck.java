package dev.distlock.spring.boot.actuate;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.distlock.core.HeldLease;
import dev.distlock.core.LockException;
import dev.distlock.core.RedisLockClient;
import dev.distlock.core.internal.time.DurationFormat;

/**
 * What the {@code distributedLock} health contributor reports, free of Spring Boot's health types (their package
 * differs between Boot 3.5 and Boot 4): the two health indicators turn a {@link Result} into their Boot's
 * {@code Health}.
 */
final class LockHealthCheck {

    /** A name no lock uses, inspected to prove a round trip. */
    static final String PROBE_NAME = "distributed-lock-health-probe";

    private final RedisLockClient client;

    private final RecentLeaseLosses losses;

    LockHealthCheck(RedisLockClient client, RecentLeaseLosses losses) {
        this.client = client;
        this.losses = losses;
    }

    /** UP or DOWN, with the details in the order they are shown. */
    record Result(boolean up, Map<String, Object> details) {
    }

    Result check() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("redis", this.client.redisTarget());
        details.put("instanceId", this.client.instanceId());
        if (!this.client.isConnected()) {
            details.put("error", "not connected to Redis at " + this.client.redisTarget());
            return new Result(false, details);
        }
        try {
            this.client.inspect(PROBE_NAME);
        }
        catch (LockException ex) {
            details.put("error", String.valueOf(ex.getMessage()));
            return new Result(false, details);
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
        details.put("heldLeases", held);
        details.put("watchdogLag", DurationFormat.format(lag));
        details.put("leasesLostRecently", this.losses.count());
        details.put("lostWindow", DurationFormat.format(this.losses.window()));
        RecentLeaseLosses.Loss last = this.losses.last();
        if (last != null) {
            details.put("lastLoss", last.name() + " (" + last.reason() + ") at " + last.at());
        }
        return new Result(true, details);
    }
}
