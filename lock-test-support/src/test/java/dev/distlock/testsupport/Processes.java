package dev.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;

/** Assertions about OS processes, for the tests. */
final class Processes {

    private Processes() {
    }

    static boolean isAlive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    static void assertDead(Collection<Long> pids) {
        assertThat(pids).isNotEmpty().allSatisfy(pid -> assertThat(isAlive(pid)).as("pid %d alive", pid).isFalse());
    }

    /** Every redis-server this JVM spawned has been stopped (nothing is left for the shutdown hook). */
    static void assertNoneLeft() {
        assertThat(Reaper.liveProcesses()).as("redis-server processes still tracked").isEmpty();
    }
}
