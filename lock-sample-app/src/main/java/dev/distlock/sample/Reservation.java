package dev.distlock.sample;

/**
 * What one buyer was told.
 *
 * @param sku the item
 * @param buyer who asked
 * @param outcome whether a unit was reserved
 * @param fencingToken the token of the lease the reservation ran under; 0 on the unlocked path
 * @param remainingStock the stock this buyer left behind, or found when sold out; -1 when refused
 */
public record Reservation(String sku, String buyer, Outcome outcome, long fencingToken, long remainingStock) {

    /** How a reservation ended. */
    public enum Outcome {

        /** A unit was reserved and the sale recorded. */
        RESERVED,

        /** No stock was left. */
        SOLD_OUT,

        /** The storage refused the write: a newer lock holder had already been there (see fencing). */
        REJECTED_STALE_TOKEN
    }
}
