package dev.distlock.benchmarks.contention;

/**
 * What one contention run measured. Latencies are in microseconds, NaN when there was nothing to measure.
 *
 * @param lock the subject's label
 * @param clients number of client instances contending for the key
 * @param sectionMillis the critical section held after each grant
 * @param grantsPerSecond grants whose acquire returned within the measured window, per second
 * @param commandsPerGrant Redis commands in the window (incl. inside scripts) per grant
 * @param jain Jain's fairness index of grants per client: 1 is perfectly even, 1/N is one client taking all
 * @param rewonShare share of grants that went to the client that held the lock just before
 * @param overtakeShare share of grants that went to a client whose acquire started more than 1 ms later than the
 * acquire of another client still waiting at that moment (0 for strict FIFO)
 * @param handoffP50 release return of one holder to acquire return of the next, different, holder: median
 * @param handoffP99 same, 99th percentile
 * @param acquireP50 acquire call duration, median: attempts that returned in the window, and attempts still waiting at
 * its end with their wait so far
 * @param acquireP99 same, 99th percentile
 * @param starvedClients clients that got no grant in at least one whole second of the window
 * @param longestGapMillis longest time any one client went without a grant in the window
 * @param failures acquire attempts that timed out (10 s) or threw, and releases that threw
 * @param releaseP50 median duration of a release call, in microseconds
 * @param releaseToNextP50 median time from one holder's release call to the next, different, holder's acquire
 * return, in microseconds: the whole handoff chain as the next holder sees it
 * @param redisCpuPerGrant Redis CPU (user + system, from {@code INFO cpu}) in the window per grant, in microseconds:
 * at saturation, where one Redis core serves every client, grants/s is at most its inverse
 * @param clientCpuPerGrant CPU of the harness JVM (every client instance) in the window per grant, in microseconds
 */
record ContentionResult(String lock, int clients, int sectionMillis, double grantsPerSecond,
        double commandsPerGrant, double jain, double rewonShare, double overtakeShare, double handoffP50,
        double handoffP99, double acquireP50, double acquireP99, int starvedClients, double longestGapMillis,
        int failures, double releaseP50, double releaseToNextP50, double redisCpuPerGrant,
        double clientCpuPerGrant) {
}
