package dev.distlock.sample;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The outcome of {@code POST /demo/oversell}: the same reservations run concurrently through the locked path and
 * through the unlocked path, plus one lock holder that pauses past its lease.
 *
 * @param sku the item the paths ran on (reset before each)
 * @param buyers concurrent buyers per path
 * @param initialStock stock at the start of each path
 * @param workDelayMs simulated work between reading and writing the stock
 * @param locked the {@code @DistributedLock} path with fenced writes
 * @param unlocked the plain read-modify-write path
 * @param pausedHolder what fencing does when a holder outlives its lease
 */
public record DemoReport(String sku, int buyers, long initialStock, long workDelayMs, PathReport locked,
        PathReport unlocked, PausedHolderReport pausedHolder) {

    /**
     * One path's run.
     *
     * @param path which path
     * @param reserved buyers told they got a unit
     * @param soldOut buyers told the item was sold out
     * @param rejectedStaleToken buyers whose write the storage refused for a stale fencing token
     * @param failed buyers that got an error (e.g. the lock stayed busy for the whole wait)
     * @param sold sales the storage recorded
     * @param remainingStock the stock counter at the end
     * @param oversold sales beyond the initial stock
     * @param fencingTokens the tokens the buyers' leases carried; null on the unlocked path
     * @param staleWritesRejected accesses the storage refused for a stale token during the run
     * @param elapsedMs wall time of the run
     * @param failures the first few failure messages
     */
    public record PathReport(String path, int reserved, int soldOut, int rejectedStaleToken, int failed, long sold,
            long remainingStock, long oversold, @Nullable TokenStats fencingTokens, long staleWritesRejected,
            long elapsedMs, List<String> failures) {
    }

    /**
     * Fencing tokens of one locked run.
     *
     * @param issued leases granted (one per buyer that got the lock)
     * @param min smallest token
     * @param max largest token
     * @param distinct whether no two leases had the same token
     * @param strictlyIncreasingInCommitOrder whether the recorded sales carry strictly increasing tokens, in the
     * order they were written
     */
    public record TokenStats(int issued, long min, long max, boolean distinct,
            boolean strictlyIncreasingInCommitOrder) {
    }

    /**
     * A holder whose lease expires while it is paused (a stop-the-world GC, say) between reading and writing.
     *
     * @param sku the item used
     * @param leaseMs the paused holder's fixed lease
     * @param pauseMs how long it paused between its read and its write
     * @param pausedHolderToken the paused holder's fencing token
     * @param pausedHolderOutcome what happened to its write
     * @param pausedHolderLeaseLost whether the paused holder was told its lease was lost
     * @param newerHolderToken the token of the holder that took the lock while the first one was paused
     * @param newerHolderOutcome what happened to the newer holder's reservation
     * @param sold sales the storage recorded
     * @param remainingStock the stock counter at the end
     * @param staleWritesRejected accesses the storage refused for a stale token
     */
    public record PausedHolderReport(String sku, long leaseMs, long pauseMs, long pausedHolderToken,
            Reservation.@Nullable Outcome pausedHolderOutcome, boolean pausedHolderLeaseLost, long newerHolderToken,
            Reservation.Outcome newerHolderOutcome, long sold, long remainingStock, long staleWritesRejected) {
    }
}
