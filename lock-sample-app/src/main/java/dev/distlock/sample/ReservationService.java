package dev.distlock.sample;

import java.time.Duration;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockTemplate;
import dev.distlock.spring.annotation.DistributedLock;
import dev.distlock.spring.annotation.LockContext;

import org.springframework.stereotype.Service;

/**
 * Reserves one unit of an item: read the stock, do some work, write the stock back minus one and record the sale.
 * That read-modify-write is only correct if no two buyers of the same item run it at once, which is what the lock
 * is for; the lease's fencing token goes with every storage access so that a holder whose lease ran out (a long GC
 * pause, say) cannot write over a newer holder's work.
 *
 * <p>Three ways in, with the same body:
 * <ul>
 * <li>{@link #reserve(String, String)}: declarative, {@code @DistributedLock} on lock {@code stock:<sku>};</li>
 * <li>{@link #reserveWithTemplate(String, String)}: programmatic, {@link LockTemplate} on the same lock name, so
 * both paths exclude each other;</li>
 * <li>{@link #reserveUnlocked(String, String)}: no lock, no fencing, to show what goes wrong.</li>
 * </ul>
 * Not final: the annotation works through a proxy.
 */
@Service
public class ReservationService {

    /** Prefix of the lock names; the annotation's {@code name}. */
    static final String LOCK_NAME = "stock";

    private final StockStore store;

    private final LockTemplate lockTemplate;

    private final Duration workDelay;

    /**
     * @param store the stock storage
     * @param lockTemplate the starter's template, for the programmatic path
     * @param properties the sample's settings (simulated work time)
     */
    public ReservationService(StockStore store, LockTemplate lockTemplate, SampleProperties properties) {
        this.store = store;
        this.lockTemplate = lockTemplate;
        this.workDelay = properties.workDelay();
    }

    /**
     * Reserves one unit holding the lock {@code stock:<sku>}, waiting up to 10 s for it.
     *
     * @throws dev.distlock.core.LockNotAcquiredException if the lock stayed busy for 10 s; nothing was reserved
     * @throws UnknownItemException if there is no such item
     */
    @DistributedLock(name = LOCK_NAME, key = "#sku", waitTime = "10s")
    public Reservation reserve(String sku, String buyer) {
        LockLease lease = LockContext.currentLease()
            .orElseThrow(() -> new IllegalStateException("@DistributedLock advice is not applied to " + getClass()));
        return reserveFenced(sku, buyer, lease.fencingToken(), this.workDelay);
    }

    /**
     * Same as {@link #reserve(String, String)}, written with {@link LockTemplate}; waits for the lock up to
     * {@code distributed-lock.wait-time}.
     *
     * @throws dev.distlock.core.LockNotAcquiredException if the lock stayed busy for the wait time
     * @throws UnknownItemException if there is no such item
     */
    public Reservation reserveWithTemplate(String sku, String buyer) {
        return this.lockTemplate.execute(lockName(sku),
                (lease) -> reserveFenced(sku, buyer, lease.fencingToken(), this.workDelay));
    }

    /**
     * The same read-modify-write with no lock and no fencing token: concurrent buyers read the same stock, each
     * believes it got a unit, and the item is oversold.
     *
     * @throws UnknownItemException if there is no such item
     */
    public Reservation reserveUnlocked(String sku, String buyer) {
        long stock = this.store.readStockUnfenced(sku);
        if (stock <= 0) {
            return new Reservation(sku, buyer, Reservation.Outcome.SOLD_OUT, 0, stock);
        }
        work(this.workDelay);
        this.store.commitSaleUnfenced(sku, stock - 1, buyer);
        return new Reservation(sku, buyer, Reservation.Outcome.RESERVED, 0, stock - 1);
    }

    /** The lock both locked paths use for an item. */
    static String lockName(String sku) {
        return LOCK_NAME + ":" + StockStore.requireSku(sku);
    }

    /**
     * The body of a locked reservation: every storage access carries {@code fencingToken}. {@code work} is the time
     * spent between read and write; {@link PausedHolderDemo} makes it longer than the lease.
     */
    Reservation reserveFenced(String sku, String buyer, long fencingToken, Duration work) {
        // The holder's id for the storage: an equal token from another writer is refused too.
        String writer = java.util.UUID.randomUUID().toString();
        try {
            long stock = this.store.readStock(sku, fencingToken, writer);
            if (stock <= 0) {
                return new Reservation(sku, buyer, Reservation.Outcome.SOLD_OUT, fencingToken, stock);
            }
            work(work);
            this.store.commitSale(sku, fencingToken, writer, stock - 1, buyer);
            return new Reservation(sku, buyer, Reservation.Outcome.RESERVED, fencingToken, stock - 1);
        }
        catch (StaleFencingTokenException ex) {
            return new Reservation(sku, buyer, Reservation.Outcome.REJECTED_STALE_TOKEN, fencingToken, -1);
        }
    }

    private static void work(Duration duration) {
        if (duration.isZero() || duration.isNegative()) {
            return;
        }
        try {
            Thread.sleep(duration.toMillis(), duration.toNanosPart() % 1_000_000);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted during the simulated work", ex);
        }
    }
}
