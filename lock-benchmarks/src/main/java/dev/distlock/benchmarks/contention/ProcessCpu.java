package dev.distlock.benchmarks.contention;

import java.lang.management.ManagementFactory;

/** CPU time of the harness JVM, where every client instance runs: what the clients' side of a lock costs. */
final class ProcessCpu {

    private ProcessCpu() {
    }

    /** CPU time used by this process so far, in nanoseconds; 0 where the JVM does not tell. */
    static long nanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return 0;
    }
}
