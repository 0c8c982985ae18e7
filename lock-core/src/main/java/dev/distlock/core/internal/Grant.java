package dev.distlock.core.internal;

/**
 * A successful acquire as Redis answered it.
 *
 * @param owner the owner token written to the lock key
 * @param fencingToken the token minted for this acquisition
 * @param sentAtNanos {@code System.nanoTime()} just before the request was sent: validity counts from here
 */
public record Grant(String owner, long fencingToken, long sentAtNanos) {
}
