package dev.distlock.sample;

import java.util.List;

/**
 * An item as stored in Redis, read in one go.
 *
 * @param sku the item
 * @param stock units left according to the stock counter
 * @param initialStock units the item was created (or last reset) with
 * @param sold sales recorded, one per reservation that was written
 * @param oversold sales beyond the initial stock; 0 unless something bypassed the lock
 * @param lastToken the newest fencing token the item has seen (0: none)
 * @param staleWritesRejected accesses refused because their token was older than {@code lastToken}
 * @param sales the recorded sales in commit order
 */
public record ItemSnapshot(String sku, long stock, long initialStock, long sold, long oversold, long lastToken,
        long staleWritesRejected, List<Sale> sales) {

    /**
     * One recorded sale.
     *
     * @param buyer who bought
     * @param fencingToken the token the write carried; 0 for writes from the unlocked path
     */
    public record Sale(String buyer, long fencingToken) {
    }
}
