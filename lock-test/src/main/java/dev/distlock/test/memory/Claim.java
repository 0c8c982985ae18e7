package dev.distlock.test.memory;

/**
 * One side of one name that an acquisition takes: a single lock has one claim, a multi-lock one per name.
 *
 * @param side which side of the name's state
 * @param name the lock name
 */
record Claim(Side side, String name) {
}
