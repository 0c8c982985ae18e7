package dev.distlock.benchmarks.contention;

/**
 * What the waiting scenario measured.
 *
 * @param lock the subject's label
 * @param waiters client instances blocked on the held lock
 * @param commandsPerSecond Redis commands per second while they all waited (incl. inside scripts)
 * @param firstMillis from the holder's release return to the first waiter's acquire return
 * @param allGrantedMillis from the release return to the last waiter's acquire return
 * @param allThroughMillis from the release return to the last waiter's own release return
 * @param failures waiters that did not get the lock, or calls that threw
 */
record WaitingResult(String lock, int waiters, double commandsPerSecond, double firstMillis,
        double allGrantedMillis, double allThroughMillis, int failures) {
}
