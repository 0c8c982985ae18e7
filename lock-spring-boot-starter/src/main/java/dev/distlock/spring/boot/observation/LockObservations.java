package dev.distlock.spring.boot.observation;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.distlock.core.HeldLease;
import dev.distlock.core.LeaseLoss;
import dev.distlock.core.LockEventListener;
import dev.distlock.core.LockLostException;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

/**
 * Observes the leases of a lock client through Micrometer's {@link ObservationRegistry}, so metrics and traces come
 * from one instrumentation:
 * <ul>
 * <li>{@code distlock.hold}: one observation per hold, from grant to release or loss (with the default meter
 * handler: a long task timer of the holds in progress and a timer of their durations; a lost hold ends with an
 * error);</li>
 * <li>{@code distlock.lease.lost}: one short observation per lost lease;</li>
 * <li>{@code distlock.renewal.failed}: one short observation per renewal that failed in transit.</li>
 * </ul>
 * Low-cardinality key values (metric tags): {@code lock.kind} and, for losses, {@code lock.loss.reason}. The lock
 * name and fencing token are high-cardinality key values (span attributes only), never metric tags.
 */
final class LockObservations implements LockEventListener {

    static final String HOLD = "distlock.hold";

    static final String LEASE_LOST = "distlock.lease.lost";

    static final String RENEWAL_FAILED = "distlock.renewal.failed";

    private final ObservationRegistry registry;

    /** Open hold observations by owner token (unique per hold). */
    private final Map<String, Observation> holds = new ConcurrentHashMap<>();

    LockObservations(ObservationRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void acquired(HeldLease lease) {
        Observation observation = observation(HOLD, lease).contextualName("lock hold " + lease.kind()).start();
        this.holds.put(lease.owner(), observation);
    }

    @Override
    public void released(HeldLease lease) {
        Observation observation = this.holds.remove(lease.owner());
        if (observation != null) {
            observation.stop();
        }
    }

    @Override
    public void lost(HeldLease lease, LeaseLoss loss) {
        String reason = loss.reason().name().toLowerCase(Locale.ROOT);
        Observation hold = this.holds.remove(lease.owner());
        if (hold != null) {
            hold.lowCardinalityKeyValue("lock.loss.reason", reason);
            hold.error(new LockLostException(lease.name(), lease.fencingToken(), "lease lost: " + loss.reason()));
            hold.stop();
        }
        observation(LEASE_LOST, lease).lowCardinalityKeyValue("lock.loss.reason", reason).start().stop();
    }

    @Override
    public void renewalFailed(HeldLease lease, Throwable failure) {
        Observation observation = observation(RENEWAL_FAILED, lease).start();
        observation.error(failure);
        observation.stop();
    }

    /** Number of holds being observed (for tests). */
    int openHolds() {
        return this.holds.size();
    }

    private Observation observation(String name, HeldLease lease) {
        return Observation.createNotStarted(name, this.registry)
            .lowCardinalityKeyValue("lock.kind", lease.kind())
            .highCardinalityKeyValue("lock.name", lease.name())
            .highCardinalityKeyValue("lock.fencing.token", Long.toString(lease.fencingToken()));
    }
}
