package dev.distlock.testsupport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How to start a {@link RedisServer}: extra command-line arguments and time bounds.
 *
 * <p>The extra arguments are appended after the defaults ({@code --port N --bind 127.0.0.1 --save ""
 * --appendonly no --protected-mode no --daemonize no --dir <temp dir>}), so for single-valued options they win,
 * e.g. {@code withArgs("--appendonly", "yes")} turns persistence on. Values are immutable; the {@code with...}
 * methods return a copy.
 *
 * @param extraArgs      arguments appended to the redis-server command line, one element per argv entry
 *                       (e.g. {@code "--replicaof", "127.0.0.1", "6379"})
 * @param startupTimeout how long to wait for a started process to answer before giving up
 * @param stopTimeout    how long to wait for SIGTERM to end the process before SIGKILL
 * @param ownSession     whether the process runs in a session of its own (through {@code setsid}, where installed),
 *                       so that a Ctrl-C in the terminal reaches only the JVM, and the JVM's shutdown hook gives its
 *                       owner up to {@code stopTimeout} to stop it (after the owner's clients have closed) before
 *                       killing it. For a server an application owns, such as the sample's; tests leave it off
 */
public record RedisServerOptions(List<String> extraArgs, Duration startupTimeout, Duration stopTimeout,
        boolean ownSession) {

    /** Default bound on waiting for a started server to answer. */
    public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(10);

    /** Default bound on waiting for SIGTERM to end a server. */
    public static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(5);

    /**
     * Validates and copies the arguments.
     *
     * @param extraArgs      arguments appended to the redis-server command line
     * @param startupTimeout how long to wait for a started process to answer, positive
     * @param stopTimeout    how long to wait for SIGTERM to end the process before SIGKILL, positive
     * @throws IllegalArgumentException if a timeout is zero or negative
     */
    public RedisServerOptions {
        extraArgs = List.copyOf(extraArgs);
        requirePositive(startupTimeout, "startupTimeout");
        requirePositive(stopTimeout, "stopTimeout");
    }

    /**
     * Options for a server in the JVM's own session (killed at once by the JVM's shutdown hook).
     *
     * @param extraArgs      arguments appended to the redis-server command line
     * @param startupTimeout how long to wait for a started process to answer, positive
     * @param stopTimeout    how long to wait for SIGTERM to end the process before SIGKILL, positive
     */
    public RedisServerOptions(List<String> extraArgs, Duration startupTimeout, Duration stopTimeout) {
        this(extraArgs, startupTimeout, stopTimeout, false);
    }

    /**
     * No extra arguments, {@link #DEFAULT_STARTUP_TIMEOUT} and {@link #DEFAULT_STOP_TIMEOUT}.
     *
     * @return the default options
     */
    public static RedisServerOptions defaults() {
        return new RedisServerOptions(List.of(), DEFAULT_STARTUP_TIMEOUT, DEFAULT_STOP_TIMEOUT);
    }

    /**
     * Appends command-line arguments, one element per argv entry.
     *
     * @param args e.g. {@code "--cluster-enabled", "yes"}
     * @return a copy with the arguments appended
     */
    public RedisServerOptions withArgs(String... args) {
        return withArgs(Arrays.asList(args));
    }

    /**
     * Appends command-line arguments, one element per argv entry.
     *
     * @param args e.g. {@code List.of("--maxmemory", "10mb")}
     * @return a copy with the arguments appended
     */
    public RedisServerOptions withArgs(List<String> args) {
        List<String> all = new ArrayList<>(extraArgs);
        for (String arg : args) {
            all.add(Objects.requireNonNull(arg, "arg"));
        }
        return new RedisServerOptions(all, startupTimeout, stopTimeout, ownSession);
    }

    /**
     * Makes the server a replica of another one ({@code --replicaof host port}).
     *
     * @param host the master's host
     * @param port the master's port
     * @return a copy with the arguments appended
     */
    public RedisServerOptions withReplicaOf(String host, int port) {
        return withArgs("--replicaof", host, Integer.toString(port));
    }

    /**
     * Requires clients to authenticate ({@code --requirepass password}).
     *
     * @param password the password for the default user
     * @return a copy with the arguments appended
     */
    public RedisServerOptions withPassword(String password) {
        return withArgs("--requirepass", password);
    }

    /**
     * Sets the bound on waiting for a started server to answer.
     *
     * @param timeout a positive duration
     * @return a copy with the new timeout
     */
    public RedisServerOptions withStartupTimeout(Duration timeout) {
        return new RedisServerOptions(extraArgs, timeout, stopTimeout, ownSession);
    }

    /**
     * Sets the bound on waiting for SIGTERM to end the server before it is killed.
     *
     * @param timeout a positive duration
     * @return a copy with the new timeout
     */
    public RedisServerOptions withStopTimeout(Duration timeout) {
        return new RedisServerOptions(extraArgs, startupTimeout, timeout, ownSession);
    }

    /**
     * Runs the server in a session of its own; see {@link #ownSession()}.
     *
     * @return a copy that runs the server in its own session
     */
    public RedisServerOptions withOwnSession() {
        return new RedisServerOptions(extraArgs, startupTimeout, stopTimeout, true);
    }

    /**
     * The password given with the last {@code --requirepass} in {@link #extraArgs()}, if any.
     *
     * @return the password clients must use, or empty if none is required
     */
    public Optional<String> password() {
        for (int i = extraArgs.size() - 2; i >= 0; i--) {
            if (extraArgs.get(i).equals("--requirepass")) {
                String password = extraArgs.get(i + 1);
                return password.isEmpty() ? Optional.empty() : Optional.of(password);
            }
        }
        return Optional.empty();
    }

    private static void requirePositive(Duration duration, String name) {
        Objects.requireNonNull(duration, name);
        if (duration.isZero() || duration.isNegative()) {
            throw new IllegalArgumentException(name + " must be positive: " + duration);
        }
    }
}
