package dev.distlock.benchmarks.contention;

/**
 * One acquire attempt of one client thread, on {@link System#nanoTime()} of the harness JVM.
 *
 * @param client index of the client instance
 * @param started just before the acquire call
 * @param returned when the acquire call returned (granted or timed out)
 * @param releasing just before the release call; equal to {@code returned} when not granted
 * @param released when the release call returned; equal to {@code returned} when not granted
 * @param granted whether the lock was acquired
 */
record Attempt(int client, long started, long returned, long releasing, long released, boolean granted) {
}
