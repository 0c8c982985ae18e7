package dev.distlock.sample;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import dev.distlock.core.RedisLock;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockTemplate;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * Why the fencing token matters: holder A takes the lock with a short fixed lease, reads the stock, then pauses
 * (standing in for a stop-the-world GC or a swapped-out VM) for longer than its lease. The lock expires, holder B
 * takes it with a newer token and sells a unit. When A wakes up it writes what it computed from its old read: the
 * storage refuses the write because B's token is newer. Without that check A would overwrite B's stock and record a
 * second sale of the same unit, and no lock alone can prevent it: A cannot know it was paused.
 */
@Component
public class PausedHolderDemo {

    /** A's fixed lease. */
    static final Duration LEASE = Duration.ofMillis(500);

    /** How long A pauses between its read and its write: well past its lease. */
    static final Duration PAUSE = Duration.ofMillis(1500);

    private static final Duration BOUND = Duration.ofSeconds(10);

    private static final long STOCK = 5;

    private final ReservationService reservations;

    private final LockTemplate lockTemplate;

    private final StockStore store;

    /**
     * @param reservations the service whose fenced body both holders run
     * @param lockTemplate the starter's template, used with an explicit lease
     * @param store the storage, to reset and inspect the item
     */
    public PausedHolderDemo(ReservationService reservations, LockTemplate lockTemplate, StockStore store) {
        this.reservations = reservations;
        this.lockTemplate = lockTemplate;
        this.store = store;
    }

    /** Runs the scenario on {@code sku} (reset to a stock of 5); takes about {@link #PAUSE}. */
    public DemoReport.PausedHolderReport run(String sku) {
        this.store.reset(sku, STOCK);
        RedisLock lock = this.lockTemplate.client().getLock(ReservationService.lockName(sku));
        CountDownLatch acquired = new CountDownLatch(1);
        AtomicLong pausedToken = new AtomicLong();
        AtomicReference<Reservation.@Nullable Outcome> pausedOutcome = new AtomicReference<>();
        AtomicBoolean leaseLost = new AtomicBoolean();
        ExecutorService holderA = Executors.newSingleThreadExecutor((task) -> new Thread(task, "paused-holder"));
        try {
            Future<?> a = holderA.submit(() -> {
                try {
                    this.lockTemplate.execute(lock, BOUND, LEASE, (lease) -> {
                        pausedToken.set(lease.fencingToken());
                        acquired.countDown();
                        Reservation reservation = this.reservations.reserveFenced(sku, "paused-holder",
                                lease.fencingToken(), PAUSE);
                        pausedOutcome.set(reservation.outcome());
                        leaseLost.set(!lease.isHeld());
                        return reservation;
                    });
                }
                catch (LockLostException ex) {
                    leaseLost.set(true);
                }
            });
            await(acquired);
            Reservation newer = this.lockTemplate.execute(lock, BOUND, null,
                    (lease) -> this.reservations.reserveFenced(sku, "newer-holder", lease.fencingToken(),
                            Duration.ZERO));
            await(a);
            ItemSnapshot after = this.store.snapshot(sku);
            return new DemoReport.PausedHolderReport(sku, LEASE.toMillis(), PAUSE.toMillis(), pausedToken.get(),
                    pausedOutcome.get(), leaseLost.get(), newer.fencingToken(), newer.outcome(), after.sold(),
                    after.stock(), after.staleWritesRejected());
        }
        finally {
            holderA.shutdownNow();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("The first holder did not get the lock within " + BOUND);
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the first holder", ex);
        }
    }

    private static void await(Future<?> future) {
        try {
            future.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (ExecutionException ex) {
            throw new IllegalStateException("The paused holder failed", ex.getCause());
        }
        catch (TimeoutException ex) {
            throw new IllegalStateException("The paused holder did not finish within " + BOUND, ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the paused holder", ex);
        }
    }
}
