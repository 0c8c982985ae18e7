package dev.distlock.benchmarks.contention;

import java.util.Map;

/**
 * What the uncontended scenario measured.
 *
 * @param lock the subject's label
 * @param threads threads sharing one client instance, each on its own key
 * @param opsPerSecond acquire + release cycles per second, all threads together
 * @param commandsPerCycle Redis commands per cycle (incl. inside scripts)
 * @param clientCpuMicros CPU time of the harness JVM per cycle
 * @param redisCpuMicros CPU time of redis-server per cycle
 * @param failures cycles that found the key taken or threw
 * @param perCommand Redis's own accounting per command ({@code INFO commandstats}), per cycle
 */
record UncontendedResult(String lock, int threads, double opsPerSecond, double commandsPerCycle,
        double clientCpuMicros, double redisCpuMicros, int failures, Map<String, CommandCost> perCommand) {

    /**
     * What one command cost Redis in the measured window.
     *
     * @param callsPerCycle calls per acquire + release cycle
     * @param usecPerCall server time per call ({@code usec_per_call}); a script's includes the commands it runs
     * @param usecPerCycle server time per cycle
     */
    record CommandCost(double callsPerCycle, double usecPerCall, double usecPerCycle) {
    }
}
