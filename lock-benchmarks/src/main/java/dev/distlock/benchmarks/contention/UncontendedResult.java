package dev.distlock.benchmarks.contention;

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
 */
record UncontendedResult(String lock, int threads, double opsPerSecond, double commandsPerCycle,
        double clientCpuMicros, double redisCpuMicros, int failures) {
}
