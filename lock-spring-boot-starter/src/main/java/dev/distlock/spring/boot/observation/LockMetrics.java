package dev.distlock.spring.boot.observation;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.distlock.core.LeaseLoss;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.RedLockClient;
import dev.distlock.core.RedisLockClient;
import dev.distlock.spring.annotation.LockAdviceListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

/**
 * The Micrometer meters of distributed locks: gauges of the lock clients, the acquisitions and lost leases of
 * {@code @DistributedLock} methods, and the skipped runs of scheduled ones. Tags are bounded: {@code name} is the
 * annotation's static name or {@code ClassName.methodName}, never an evaluated key.
 */
final class LockMetrics implements LockAdviceListener {

    static final String LEASES_ACTIVE = "distlock.leases.active";

    static final String LOCKS_WAITING = "distlock.locks.waiting";

    static final String ACQUIRE = "distlock.acquire";

    /** The name of the observation of every lost lease too: one name for a lost lease across meters. */
    static final String LEASE_LOST = LockObservations.LEASE_LOST;

    static final String SCHEDULED_SKIPPED = "distlock.scheduled.skipped";

    private static final Outcome[] OUTCOMES = Outcome.values();

    private final MeterRegistry registry;

    /** Per declaration, one timer per outcome (indexed by ordinal). */
    private final Map<String, Timer[]> timers = new ConcurrentHashMap<>();

    LockMetrics(MeterRegistry registry, RedisLockClient client, @Nullable RedLockClient redLockClient) {
        this.registry = registry;
        Gauge.builder(LEASES_ACTIVE, client, RedisLockClient::activeLeaseCount)
            .description("Leases whose renewal or expiry the lock client currently tracks")
            .tag("client", "redis")
            .register(registry);
        Gauge.builder(LOCKS_WAITING, client, RedisLockClient::waitingLockCount)
            .description("Lock names the lock client currently waits on")
            .tag("client", "redis")
            .register(registry);
        if (redLockClient != null) {
            Gauge.builder(LEASES_ACTIVE, redLockClient, RedLockClient::activeLeaseCount)
                .description("Leases whose renewal or expiry the lock client currently tracks")
                .tag("client", "redlock")
                .register(registry);
        }
    }

    @Override
    public void acquireFinished(String declaration, Outcome outcome, Duration elapsed) {
        this.timers.computeIfAbsent(declaration, this::timers)[outcome.ordinal()].record(elapsed);
    }

    @Override
    public void leaseLost(String declaration, LeaseLoss loss) {
        Counter.builder(LEASE_LOST)
            .description("Leases of @DistributedLock methods lost before they were released")
            .tag("name", declaration)
            .tag("reason", tagValue(loss.reason()))
            .register(this.registry)
            .increment();
    }

    @Override
    public void scheduledRunSkipped(String declaration, LockNotAcquiredException refusal) {
        Counter.builder(SCHEDULED_SKIPPED)
            .description("Runs of @Scheduled @DistributedLock methods skipped because the job's lock was held")
            .tag("name", declaration)
            .register(this.registry)
            .increment();
    }

    private Timer[] timers(String declaration) {
        Timer[] byOutcome = new Timer[OUTCOMES.length];
        for (Outcome outcome : OUTCOMES) {
            byOutcome[outcome.ordinal()] = Timer.builder(ACQUIRE)
                .description("Lock acquisitions of @DistributedLock methods, including the wait")
                .tag("name", declaration)
                .tag("outcome", tagValue(outcome))
                .register(this.registry);
        }
        return byOutcome;
    }

    private static String tagValue(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
