package dev.distlock.core.reactive;

import java.util.concurrent.atomic.AtomicReference;

import dev.distlock.core.LockLease;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one reactive acquisition's lease from its grant until it is emitted to the subscriber, so that a cancel in
 * between releases it. Reactor drops a value that meets a cancel on its way ({@code fromFuture} discards it,
 * {@code publishOn} forgets it), and a dropped lease has nobody left to close it: a watchdog lease would be renewed
 * for as long as the client lives.
 *
 * <p>Three events, in any order and from any threads: the grant ({@link #granted}), the emission
 * ({@link #deliver}) and the cancel ({@link #abandon}). The state moves once from pending to delivered or abandoned;
 * a granted lease waits in it until then. Exactly one of them owns each lease: the subscriber if it was delivered
 * first, otherwise whichever of the grant and the cancel came last, which releases it.
 */
final class GrantCustody {

    private static final Logger logger = LoggerFactory.getLogger(GrantCustody.class);

    private static final Object PENDING = new Object();

    private static final Object DELIVERED = new Object();

    private static final Object ABANDONED = new Object();

    /** {@link #PENDING}, a granted {@link LockLease} not yet delivered, {@link #DELIVERED} or {@link #ABANDONED}. */
    private final AtomicReference<Object> state = new AtomicReference<>(PENDING);

    /** The acquisition completed with {@code lease}: kept until delivered, or released if the cancel came first. */
    void granted(LockLease lease) {
        if (this.state.compareAndExchange(PENDING, lease) == ABANDONED) {
            release(lease);
        }
    }

    /**
     * Whether the lease may be emitted; from then on it is the subscriber's. False after a cancel, which released
     * the lease or left it to {@link #granted} to release.
     */
    boolean deliver() {
        Object current = this.state.get();
        while (current != ABANDONED) {
            if (this.state.compareAndSet(current, DELIVERED)) {
                return true;
            }
            current = this.state.get();
        }
        return false;
    }

    /** The subscriber cancelled: a lease granted but not delivered is released now, one granted later on arrival. */
    void abandon() {
        Object previous = this.state.getAndUpdate((current) -> (current == DELIVERED) ? DELIVERED : ABANDONED);
        if (previous instanceof LockLease lease) {
            release(lease);
        }
    }

    private static void release(LockLease lease) {
        lease.closeAsync().whenComplete((ignored, failure) -> {
            if (failure != null) {
                logger.debug("Releasing lock '{}' granted to a cancelled subscriber: {}", lease.name(),
                        failure.getMessage());
            }
        });
    }
}
