package dev.distlock.testsupport;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The current process of a {@link RedisServer} and whether it is frozen: started, paused, resumed and ended here.
 * Not thread-safe: {@link RedisServer} calls it under its own lock.
 */
final class ServerProcess {

    private final RedisServerOptions options;
    private final ServerLaunch launch;
    private final int port;
    private @Nullable Process process;
    private boolean paused;

    ServerProcess(RedisServerOptions options, ServerLaunch launch, int port) {
        this.options = options;
        this.launch = launch;
        this.port = port;
    }

    /**
     * Spawns the process in {@code dir} and waits until it answers; on failure nothing is left running.
     *
     * @throws PortInUseException if the port was taken
     * @throws RedisServerException if it does not come up
     */
    void start(Path dir) {
        long logOffset = LogFiles.size(dir.resolve(ServerLaunch.LOG_FILE));
        Process started = launch.spawn(dir);
        Reaper.track(started, options.ownSession() ? options.stopTimeout() : Duration.ZERO);
        process = started;
        paused = false;
        try {
            started.getOutputStream().close();
            launch.awaitReady(started, dir, logOffset);
        } catch (IOException | RuntimeException e) {
            process = null;
            try {
                end(started, false);
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            if (e instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new RedisServerException("Could not talk to " + launch.describe(started), e);
        }
    }

    /**
     * Ends the current process, if any ({@link ProcessEnding}), and forgets it.
     *
     * @return the process's description, or null if there was none
     */
    @Nullable String end(boolean graceful) {
        Process current = process;
        process = null;
        if (current == null) {
            return null;
        }
        end(current, graceful);
        return launch.describe(current);
    }

    void pause() {
        Process current = requireRunning();
        if (!paused) {
            ProcessSignals.stop(current.pid());
            paused = true;
        }
    }

    void resume() {
        Process current = requireRunning();
        if (paused) {
            ProcessSignals.resume(current.pid());
            paused = false;
        }
    }

    long pid() {
        return requireProcess().pid();
    }

    boolean isRunning() {
        return process != null && process.isAlive();
    }

    boolean isPaused() {
        return paused && isRunning();
    }

    String describe() {
        Process current = process;
        return current == null ? "redis-server on port " + port + " (not running)" : launch.describe(current);
    }

    private void end(Process current, boolean graceful) {
        try {
            ProcessEnding.end(current, graceful, paused, options.stopTimeout(), launch.describe(current));
        } finally {
            paused = false;
        }
    }

    private Process requireProcess() {
        Process current = process;
        if (current == null) {
            throw new IllegalStateException(describe() + ": call restart() to start it again");
        }
        return current;
    }

    private Process requireRunning() {
        Process current = requireProcess();
        if (!current.isAlive()) {
            throw new IllegalStateException(launch.describe(current) + " has exited with code "
                    + current.exitValue());
        }
        return current;
    }
}
