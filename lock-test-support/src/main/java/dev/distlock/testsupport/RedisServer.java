package dev.distlock.testsupport;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One real {@code redis-server} process on a free loopback port, with controls for injecting faults.
 *
 * <p>Promises:
 * <ul>
 *   <li>{@link #start()} returns only once the process answers on {@code 127.0.0.1:port()} (checked by asking
 *       it for its own pid), within {@link RedisServerOptions#startupTimeout()}; otherwise it throws a
 *       {@link RedisServerException} ending with the last lines of the server's log, and leaves nothing
 *       running. If the port was taken by someone else in the meantime, it retries on another port.</li>
 *   <li>The server runs with {@code --bind 127.0.0.1 --save "" --appendonly no --protected-mode no
 *       --daemonize no --dir <own temp dir>}, then the {@linkplain RedisServerOptions#extraArgs() extra
 *       arguments}. Its stdout and stderr go to {@code redis.log} in that directory.</li>
 *   <li>The port never changes, not even across {@link #restart()}.</li>
 *   <li>{@link #stop()} (and {@link #close()}) end the process and delete its directory; they are idempotent.
 *       A JVM shutdown hook kills every server still running when the JVM exits.</li>
 * </ul>
 * All methods are thread-safe.
 *
 * <p>Over 300 lines on purpose: the process lifecycle (launch, readiness, stop, kill, pause, restart) shares one
 * lock and one {@code Process} field, and splitting it would spread that state over classes.
 */
public final class RedisServer implements AutoCloseable {

    /** The address every server binds to and {@link #host()} returns. */
    public static final String HOST = "127.0.0.1";

    private static final Logger log = LoggerFactory.getLogger(RedisServer.class);
    private static final int MAX_PORT_ATTEMPTS = 5;
    private static final int LOG_TAIL_LINES = 25;
    private static final Duration PROBE_TIMEOUT = Duration.ofMillis(500);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(10);
    private static final String LOG_FILE = "redis.log";
    private static final String CONFIG_FILE = "redis.conf";
    private static final Path SETSID = Path.of("/usr/bin/setsid");

    private final RedisServerOptions options;
    private final Path binary;
    private final int port;
    private @Nullable Path directory;
    private @Nullable Process process;
    private boolean paused;

    private RedisServer(RedisServerOptions options, Path binary, int port) {
        this.options = options;
        this.binary = binary;
        this.port = port;
    }

    /**
     * Starts a server with {@link RedisServerOptions#defaults()}.
     *
     * @return a running server that answers commands
     * @throws RedisServerException if it cannot be started
     */
    public static RedisServer start() {
        return start(RedisServerOptions.defaults());
    }

    /**
     * Starts a server with the given options.
     *
     * @param options extra arguments and time bounds
     * @return a running server that answers commands
     * @throws RedisServerException if it cannot be started
     */
    public static RedisServer start(RedisServerOptions options) {
        return start(options, PortAllocator::next);
    }

    static RedisServer start(RedisServerOptions options, IntSupplier ports) {
        Path binary = RedisBinary.path();
        PortInUseException lastCollision = null;
        for (int attempt = 1; attempt <= MAX_PORT_ATTEMPTS; attempt++) {
            RedisServer server = new RedisServer(options, binary, ports.getAsInt());
            try {
                server.launch();
                return server;
            } catch (PortInUseException e) {
                log.debug("port {} was taken, retrying on another port (attempt {})", server.port, attempt);
                server.stop();
                if (lastCollision != null) {
                    e.addSuppressed(lastCollision);
                }
                lastCollision = e;
            } catch (RuntimeException e) {
                server.stop();
                throw e;
            }
        }
        throw new RedisServerException("Could not start redis-server: " + MAX_PORT_ATTEMPTS
                + " ports in a row were taken by other processes", lastCollision);
    }

    /**
     * The address the server listens on.
     *
     * @return always {@value #HOST}
     */
    public String host() {
        return HOST;
    }

    /**
     * The port the server listens on; it stays the same across {@link #restart()}.
     *
     * @return the TCP port
     */
    public int port() {
        return port;
    }

    /**
     * The server's address as a Redis URI, without credentials.
     *
     * @return e.g. {@code redis://127.0.0.1:6379}
     */
    public String uri() {
        return "redis://" + HOST + ":" + port;
    }

    /**
     * The options this server was started with.
     *
     * @return the options, including any password in {@link RedisServerOptions#password()}
     */
    public RedisServerOptions options() {
        return options;
    }

    /**
     * The pid of the current process (it changes on {@link #restart()}).
     *
     * @return the pid, also when the process has died by itself or is paused
     * @throws IllegalStateException after {@link #stop()} or {@link #kill9()} until the next {@link #restart()}
     */
    public synchronized long pid() {
        return requireProcess().pid();
    }

    /**
     * Whether the process is alive (a paused process is alive).
     *
     * @return true between a successful start/restart and stop/kill/crash
     */
    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /**
     * Whether the process is frozen by {@link #pause()}.
     *
     * @return true between {@link #pause()} and {@link #resume()} (or the end of the process)
     */
    public synchronized boolean isPaused() {
        return paused && isRunning();
    }

    /**
     * The server's working directory, holding its {@code redis.conf} and {@code redis.log}.
     *
     * @return the directory
     * @throws IllegalStateException after {@link #stop()}, which deletes it
     */
    public synchronized Path directory() {
        if (directory == null) {
            throw new IllegalStateException(describe() + " is stopped; its directory was deleted");
        }
        return directory;
    }

    /**
     * The last lines the server wrote to its log (across restarts).
     *
     * @param lines how many lines at most
     * @return the lines, or an empty string if the log is gone
     */
    public synchronized String logTail(int lines) {
        if (directory == null) {
            return "";
        }
        return LogFiles.tail(LogFiles.readFrom(directory.resolve(LOG_FILE), 0), lines);
    }

    /**
     * Stops the server gracefully: SIGTERM, then SIGKILL if it has not exited within
     * {@link RedisServerOptions#stopTimeout()}. A paused server is resumed first so that it can handle SIGTERM.
     * Deletes the server's directory. Does nothing if already stopped. The server can be started again on the
     * same port with {@link #restart()}.
     *
     * @throws RedisServerException if the process could not be ended
     */
    public synchronized void stop() {
        Process current = process;
        process = null;
        try {
            if (current != null) {
                terminate(current, true);
                log.debug("stopped {}", describe(current));
            }
        } finally {
            if (directory != null) {
                TempDirs.delete(directory);
                directory = null;
            }
        }
    }

    /**
     * Same as {@link #stop()}.
     */
    @Override
    public void close() {
        stop();
    }

    /**
     * Kills the process with SIGKILL, like a crash: no shutdown, no goodbye to clients or replicas. Keeps the
     * directory (so a server with persistence turned on comes back with its data on {@link #restart()}).
     * Does nothing if the process is not running.
     */
    public synchronized void kill9() {
        Process current = process;
        process = null;
        if (current != null) {
            terminate(current, false);
            log.debug("killed {}", describe(current));
        }
    }

    /**
     * Freezes the process with SIGSTOP: it keeps its connections open but answers nothing, like a long GC
     * pause or a network partition. Returns once the kernel reports the process stopped (on Linux).
     *
     * @throws IllegalStateException if the server is not running
     */
    public synchronized void pause() {
        Process current = requireRunning();
        if (!paused) {
            ProcessSignals.stop(current.pid());
            paused = true;
        }
    }

    /**
     * Continues a {@linkplain #pause() paused} process with SIGCONT; it then answers the commands that queued
     * up meanwhile. Does nothing if it is not paused.
     *
     * @throws IllegalStateException if the server is not running
     */
    public synchronized void resume() {
        Process current = requireRunning();
        if (paused) {
            ProcessSignals.resume(current.pid());
            paused = false;
        }
    }

    /**
     * Restarts the server on the same port with the same arguments: stops the process gracefully if it is
     * running (or just starts it again after {@link #stop()}, {@link #kill9()} or a crash), then waits until it
     * answers. Without persistence it comes back empty. Clients with auto-reconnect (Lettuce's default)
     * reconnect by themselves.
     *
     * @throws RedisServerException if the port was taken meanwhile or the server does not come up
     */
    public synchronized void restart() {
        Process current = process;
        process = null;
        if (current != null) {
            terminate(current, true);
        }
        try {
            launch();
        } catch (PortInUseException e) {
            throw new RedisServerException("Cannot restart redis-server on port " + port
                    + ": the port was taken by another process meanwhile", e);
        }
        log.debug("restarted {}", describe());
    }

    @Override
    public synchronized String toString() {
        return describe();
    }

    private String describe() {
        Process current = process;
        return current == null ? "redis-server on port " + port + " (not running)" : describe(current);
    }

    private String describe(Process current) {
        return "redis-server on port " + port + " (pid " + current.pid() + ")";
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
            throw new IllegalStateException(describe(current) + " has exited with code " + current.exitValue());
        }
        return current;
    }

    /** Spawns the process on {@link #port} and waits until it answers; on failure nothing is left running. */
    private void launch() {
        Path dir;
        Path logFile;
        long logOffset;
        Process started;
        try {
            if (directory == null) {
                directory = TempDirs.create("distlock-redis-" + port + "-");
            }
            dir = directory;
            Path config = dir.resolve(CONFIG_FILE);
            if (!Files.exists(config)) {
                // sentinel mode needs a writable config file; everything else is on the command line
                Files.writeString(config, "# written by distlock test support; options are on the command line\n",
                        StandardCharsets.UTF_8);
            }
            logFile = dir.resolve(LOG_FILE);
            logOffset = LogFiles.size(logFile);
            ProcessBuilder builder = new ProcessBuilder(command(config, dir))
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(Redirect.appendTo(logFile.toFile()));
            started = builder.start();
        } catch (IOException e) {
            throw new RedisServerException("Could not spawn " + binary + " for port " + port, e);
        }
        Reaper.track(started, options.ownSession() ? options.stopTimeout() : Duration.ZERO);
        process = started;
        paused = false;
        try {
            started.getOutputStream().close();
            awaitReady(started, logFile, logOffset);
            log.debug("started {} in {}", describe(started), dir);
        } catch (IOException | RuntimeException e) {
            process = null;
            try {
                terminate(started, false);
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            if (e instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new RedisServerException("Could not talk to " + describe(started), e);
        }
    }

    private List<String> command(Path config, Path dir) {
        List<String> command = new ArrayList<>();
        if (options.ownSession() && Files.isExecutable(SETSID)) {
            // a child of the JVM is not a process group leader, so setsid execs redis-server in place: same pid
            command.add(SETSID.toString());
        }
        command.addAll(List.of(
                binary.toString(), config.toString(),
                "--port", Integer.toString(port),
                "--bind", HOST,
                "--save", "",
                "--appendonly", "no",
                "--protected-mode", "no",
                "--daemonize", "no",
                "--dir", dir.toString()));
        command.addAll(options.extraArgs());
        return command;
    }

    private void awaitReady(Process started, Path logFile, long logOffset) {
        long deadline = System.nanoTime() + options.startupTimeout().toNanos();
        String password = options.password().orElse(null);
        while (true) {
            if (!started.isAlive()) {
                String output = LogFiles.readFrom(logFile, logOffset);
                if (output.contains("Address already in use") || output.contains("Address in use")) {
                    throw new PortInUseException(port);
                }
                throw new RedisServerException(describe(started) + " exited with code " + started.exitValue()
                        + " while starting; command: " + command(logFile.resolveSibling(CONFIG_FILE),
                        logFile.getParent()) + "\nlast lines of " + logFile + ":\n"
                        + LogFiles.tail(output, LOG_TAIL_LINES));
            }
            long answeringPid = RespProbe.processId(HOST, port, password, PROBE_TIMEOUT);
            if (answeringPid == started.pid() || answeringPid == RespProbe.ANSWERED_WITHOUT_PID) {
                return;
            }
            // NO_ANSWER: not listening yet; another pid: someone else has the port and our process will exit
            if (System.nanoTime() - deadline > 0) {
                throw new RedisServerException(describe(started) + " did not answer within "
                        + options.startupTimeout() + "\nlast lines of " + logFile + ":\n"
                        + LogFiles.tail(LogFiles.readFrom(logFile, logOffset), LOG_TAIL_LINES));
            }
            Sleeps.sleep(POLL_INTERVAL);
        }
    }

    /** Ends the process (gracefully: SIGTERM first) and waits for it, bounded by the stop timeout. */
    private void terminate(Process current, boolean graceful) {
        try {
            if (current.isAlive()) {
                if (graceful && paused) {
                    resumeQuietly(current);
                }
                if (graceful) {
                    current.destroy();
                    if (!current.waitFor(options.stopTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                        log.warn("{} ignored SIGTERM for {}, killing it", describe(current), options.stopTimeout());
                    }
                }
                if (current.isAlive()) {
                    current.destroyForcibly();
                    if (!current.waitFor(options.stopTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                        throw new RedisServerException(describe(current) + " survived SIGKILL for "
                                + options.stopTimeout());
                    }
                }
            }
            Reaper.untrack(current);
        } catch (InterruptedException e) {
            current.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new RedisServerException("Interrupted while stopping " + describe(current), e);
        } finally {
            paused = false;
        }
    }

    private void resumeQuietly(Process current) {
        try {
            ProcessSignals.send(current.pid(), "CONT");
        } catch (RedisServerException e) {
            log.debug("could not resume {} before stopping it; it will be killed if needed", describe(current), e);
        }
    }

    /** The port was taken between choosing it and redis-server binding it. */
    static final class PortInUseException extends RedisServerException {

        private static final long serialVersionUID = 1L;

        PortInUseException(int port) {
            super("Port " + port + " is already in use");
        }
    }
}
