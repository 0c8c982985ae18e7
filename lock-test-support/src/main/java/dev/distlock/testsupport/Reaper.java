package dev.distlock.testsupport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Makes sure no redis-server outlives the JVM: every spawned process and temp directory is tracked until it is
 * cleaned up normally, and a JVM shutdown hook kills (SIGKILL) and deletes whatever is left. A process tracked with a
 * grace period is given that long to be stopped by its owner (whose own shutdown hook runs at the same time, e.g. an
 * application context closing its Redis clients first) before it is killed.
 *
 * <p>A JVM that is itself killed with SIGKILL runs no hooks; its servers are then left running.
 */
final class Reaper {

    private static final Map<Process, Duration> PROCESSES = new ConcurrentHashMap<>();
    private static final Set<Path> DIRECTORIES = ConcurrentHashMap.newKeySet();

    static {
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(Reaper::reapAll, "distlock-redis-reaper"));
        } catch (IllegalStateException alreadyShuttingDown) {
            // nothing can be registered any more; callers still clean up normally
        }
    }

    private Reaper() {
    }

    static void track(Process process) {
        track(process, Duration.ZERO);
    }

    /** @param grace how long the shutdown hook waits for the process to end before killing it */
    static void track(Process process, Duration grace) {
        PROCESSES.put(process, grace);
    }

    static void untrack(Process process) {
        PROCESSES.remove(process);
    }

    static void trackDirectory(Path directory) {
        DIRECTORIES.add(directory);
    }

    static void untrackDirectory(Path directory) {
        DIRECTORIES.remove(directory);
    }

    /** The processes still tracked, for tests. */
    static List<Process> liveProcesses() {
        return List.copyOf(PROCESSES.keySet());
    }

    private static void reapAll() {
        Map<Process, Duration> tracked = Map.copyOf(PROCESSES);
        long end = System.nanoTime() + tracked.values().stream().max(Duration::compareTo).orElse(Duration.ZERO)
            .toNanos();
        tracked.entrySet().stream().filter((entry) -> entry.getValue().isZero())
            .forEach((entry) -> entry.getKey().destroyForcibly());
        for (Map.Entry<Process, Duration> entry : tracked.entrySet()) {
            if (!entry.getValue().isZero()) {
                awaitExit(entry.getKey(), Math.max(0, end - System.nanoTime()));
                entry.getKey().destroyForcibly();
            }
        }
        List<Process> processes = List.copyOf(tracked.keySet());
        for (Process process : processes) {
            try {
                process.waitFor(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        for (Path directory : List.copyOf(DIRECTORIES)) {
            TempDirs.deleteRecursively(directory);
        }
    }

    private static void awaitExit(Process process, long nanos) {
        try {
            process.waitFor(nanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
