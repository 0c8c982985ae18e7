package dev.distlock.sample;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntFunction;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

/**
 * Fires concurrent reservations at one item through the locked path, then through the unlocked path, then runs the
 * {@link PausedHolderDemo}, and reports (and logs as a table) what the storage ended up with.
 */
@Component
public class OversellDemo {

    private static final Logger log = LoggerFactory.getLogger(OversellDemo.class);

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private static final int MAX_FAILURES_REPORTED = 5;

    private final ReservationService reservations;

    private final StockStore store;

    private final PausedHolderDemo pausedHolderDemo;

    private final Duration workDelay;

    /**
     * @param reservations the service under demonstration
     * @param store the storage, to reset and inspect the item
     * @param pausedHolderDemo the fencing demonstration
     * @param properties the sample's settings (simulated work time)
     */
    public OversellDemo(ReservationService reservations, StockStore store, PausedHolderDemo pausedHolderDemo,
            SampleProperties properties) {
        this.reservations = reservations;
        this.store = store;
        this.pausedHolderDemo = pausedHolderDemo;
        this.workDelay = properties.workDelay();
    }

    /**
     * Runs the demonstration; takes about a second plus {@code buyers} critical sections.
     *
     * @param sku the item to use; it is reset, and {@code <sku>-paused} is used for the paused holder
     * @param buyers concurrent buyers per path, 1 to {@value ConcurrentBuyers#MAX_BUYERS}
     * @param stock the stock each path starts with
     */
    public DemoReport run(String sku, int buyers, long stock) {
        DemoReport.PathReport locked = runPath("locked", sku, buyers, stock,
                (i) -> this.reservations.reserve(sku, "locked-buyer-" + i));
        DemoReport.PathReport unlocked = runPath("unlocked", sku, buyers, stock,
                (i) -> this.reservations.reserveUnlocked(sku, "unlocked-buyer-" + i));
        DemoReport.PausedHolderReport pausedHolder = this.pausedHolderDemo.run(sku + "-paused");
        DemoReport report = new DemoReport(sku, buyers, stock, this.workDelay.toMillis(), locked, unlocked,
                pausedHolder);
        log.info("\n{}", DemoTable.format(report));
        return report;
    }

    private DemoReport.PathReport runPath(String path, String sku, int buyers, long stock,
            IntFunction<Reservation> buyer) {
        this.store.reset(sku, stock);
        ItemSnapshot before = this.store.snapshot(sku);
        long start = System.nanoTime();
        List<ConcurrentBuyers.Result> results = ConcurrentBuyers.run(buyers, buyer, DEADLINE);
        long elapsedMs = Duration.ofNanos(System.nanoTime() - start).toMillis();
        ItemSnapshot after = this.store.snapshot(sku);

        int reserved = 0;
        int soldOut = 0;
        int rejected = 0;
        List<Reservation> told = results.stream().map(ConcurrentBuyers.Result::reservation)
            .filter(Objects::nonNull).toList();
        for (Reservation reservation : told) {
            switch (reservation.outcome()) {
                case RESERVED -> reserved++;
                case SOLD_OUT -> soldOut++;
                case REJECTED_STALE_TOKEN -> rejected++;
            }
        }
        List<String> failures = results.stream().map(ConcurrentBuyers.Result::failure).filter(Objects::nonNull)
            .toList();
        return new DemoReport.PathReport(path, reserved, soldOut, rejected, failures.size(), after.sold(),
                after.stock(), after.oversold(), tokenStats(told, after),
                after.staleWritesRejected() - before.staleWritesRejected(), elapsedMs,
                failures.subList(0, Math.min(failures.size(), MAX_FAILURES_REPORTED)));
    }

    private static DemoReport.@org.jspecify.annotations.Nullable TokenStats tokenStats(List<Reservation> told,
            ItemSnapshot after) {
        List<Long> tokens = told.stream().map(Reservation::fencingToken).filter((token) -> token != 0).toList();
        if (tokens.isEmpty()) {
            return null;
        }
        Set<Long> distinct = new HashSet<>(tokens);
        return new DemoReport.TokenStats(tokens.size(), tokens.stream().mapToLong(Long::longValue).min().orElse(0),
                tokens.stream().mapToLong(Long::longValue).max().orElse(0), distinct.size() == tokens.size(),
                strictlyIncreasing(after.sales()));
    }

    /** Whether the sales carry strictly increasing tokens in commit order. */
    static boolean strictlyIncreasing(List<ItemSnapshot.Sale> sales) {
        for (int i = 1; i < sales.size(); i++) {
            if (sales.get(i).fencingToken() <= sales.get(i - 1).fencingToken()) {
                return false;
            }
        }
        return true;
    }
}
