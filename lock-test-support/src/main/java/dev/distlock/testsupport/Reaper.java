package dev.distlock.testsupport;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Makes sure no redis-server outlives the JVM: every spawned process and temp directory is tracked until it is
 * cleaned up normally, and a JVM shutdown hook kills (SIGKILL) and deletes whatever is left.
 *
 * <p>A JVM that is itself killed with SIGKILL runs no hooks; its servers are then left running.
 */
final class Reaper {

    private static final Set<Process> PROCESSES = ConcurrentHashMap.newKeySet();
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
        PROCESSES.add(process);
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
        return List.copyOf(PROCESSES);
    }

    private static void reapAll() {
        List<Process> processes = List.copyOf(PROCESSES);
        processes.forEach(Process::destroyForcibly);
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
}
