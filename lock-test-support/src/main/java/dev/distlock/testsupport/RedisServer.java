package dev.distlock.testsupport;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
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
 * <p>This class holds the server's lock, port and directory; {@link ServerProcess} holds its process and fault state,
 * {@link ServerLaunch} spawns the process and waits for it, {@link ProcessEnding} ends it.
 */
public final class RedisServer implements AutoCloseable {

    /** The address every server binds to and {@link #host()} returns. */
    public static final String HOST = "127.0.0.1";

    private static final Logger log = LoggerFactory.getLogger(RedisServer.class);
    private static final int MAX_PORT_ATTEMPTS = 5;

    private final RedisServerOptions options;
    private final int port;
    private final ServerProcess process;
    private @Nullable Path directory;

    private RedisServer(RedisServerOptions options, Path binary, int port) {
        this.options = options;
        this.port = port;
        this.process = new ServerProcess(options, new ServerLaunch(options, binary, port), port);
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
        return process.pid();
    }

    /**
     * Whether the process is alive (a paused process is alive).
     *
     * @return true between a successful start/restart and stop/kill/crash
     */
    public synchronized boolean isRunning() {
        return process.isRunning();
    }

    /**
     * Whether the process is frozen by {@link #pause()}.
     *
     * @return true between {@link #pause()} and {@link #resume()} (or the end of the process)
     */
    public synchronized boolean isPaused() {
        return process.isPaused();
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
        return LogFiles.tail(LogFiles.readFrom(directory.resolve(ServerLaunch.LOG_FILE), 0), lines);
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
        try {
            String stopped = process.end(true);
            if (stopped != null) {
                log.debug("stopped {}", stopped);
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
        String killed = process.end(false);
        if (killed != null) {
            log.debug("killed {}", killed);
        }
    }

    /**
     * Freezes the process with SIGSTOP: it keeps its connections open but answers nothing, like a long GC
     * pause or a network partition. Returns once the kernel reports the process stopped (on Linux).
     *
     * @throws IllegalStateException if the server is not running
     */
    public synchronized void pause() {
        process.pause();
    }

    /**
     * Continues a {@linkplain #pause() paused} process with SIGCONT; it then answers the commands that queued
     * up meanwhile. Does nothing if it is not paused.
     *
     * @throws IllegalStateException if the server is not running
     */
    public synchronized void resume() {
        process.resume();
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
        process.end(true);
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
        return process.describe();
    }

    /** Spawns the process on {@link #port} and waits until it answers; on failure nothing is left running. */
    private void launch() {
        if (directory == null) {
            try {
                directory = TempDirs.create("distlock-redis-" + port + "-");
            } catch (IOException e) {
                throw new RedisServerException("Could not create a directory for redis-server on port " + port, e);
            }
        }
        process.start(directory);
        log.debug("started {} in {}", describe(), directory);
    }
}
