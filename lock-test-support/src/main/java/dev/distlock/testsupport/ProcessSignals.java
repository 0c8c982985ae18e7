package dev.distlock.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * Sends POSIX signals that {@link ProcessHandle} cannot ({@code SIGSTOP}, {@code SIGCONT}) through the
 * {@code kill} command, and, where {@code /proc} exists, waits until the process has reached the new state.
 */
final class ProcessSignals {

    private static final Duration KILL_COMMAND_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration STATE_TIMEOUT = Duration.ofSeconds(2);

    private ProcessSignals() {
    }

    /** Stops (freezes) the process with SIGSTOP and waits until the kernel reports it stopped. */
    static void stop(long pid) {
        send(pid, "STOP");
        awaitStopped(pid, true);
    }

    /** Continues a stopped process with SIGCONT and waits until the kernel reports it no longer stopped. */
    static void resume(long pid) {
        send(pid, "CONT");
        awaitStopped(pid, false);
    }

    static void send(long pid, String signal) {
        ProcessBuilder builder = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true);
        try {
            Process kill = builder.start();
            kill.getOutputStream().close();
            if (!kill.waitFor(KILL_COMMAND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                kill.destroyForcibly();
                throw new RedisServerException("'kill -" + signal + " " + pid + "' did not finish within "
                        + KILL_COMMAND_TIMEOUT);
            }
            String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (kill.exitValue() != 0) {
                throw new RedisServerException("'kill -" + signal + " " + pid + "' failed with exit code "
                        + kill.exitValue() + ": " + output);
            }
        } catch (IOException e) {
            throw new RedisServerException("Could not run 'kill -" + signal + " " + pid + "'", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisServerException("Interrupted while sending SIG" + signal + " to " + pid, e);
        }
    }

    private static void awaitStopped(long pid, boolean stopped) {
        Path stat = Paths.get("/proc", Long.toString(pid), "stat");
        if (!Files.exists(Paths.get("/proc/self/stat"))) {
            return; // no procfs (macOS): the signal is delivered, we just cannot observe it
        }
        long deadline = System.nanoTime() + STATE_TIMEOUT.toNanos();
        while (true) {
            Character state = state(stat);
            if (state == null || (state == 'T') == stopped) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new RedisServerException("Process " + pid + " did not become " + (stopped ? "stopped" : "running")
                        + " within " + STATE_TIMEOUT + " (state " + state + ")");
            }
            Sleeps.sleep(Duration.ofMillis(2));
        }
    }

    private static @Nullable Character state(Path stat) {
        try {
            String content = Files.readString(stat, StandardCharsets.ISO_8859_1);
            int end = content.lastIndexOf(')');
            return end < 0 || end + 2 >= content.length() ? null : content.charAt(end + 2);
        } catch (NoSuchFileException e) {
            return null; // the process is gone
        } catch (IOException e) {
            return null;
        }
    }
}
