package dev.distlock.testsupport;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How {@link RedisServer} spawns one {@code redis-server} process in its directory and waits until that process, and
 * not someone else on the same port, answers.
 */
final class ServerLaunch {

    static final String LOG_FILE = "redis.log";

    private static final String CONFIG_FILE = "redis.conf";
    private static final int LOG_TAIL_LINES = 25;
    private static final Duration PROBE_TIMEOUT = Duration.ofMillis(500);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(10);
    private static final Path SETSID = Path.of("/usr/bin/setsid");

    private final RedisServerOptions options;
    private final Path binary;
    private final int port;

    ServerLaunch(RedisServerOptions options, Path binary, int port) {
        this.options = options;
        this.binary = binary;
        this.port = port;
    }

    /**
     * Starts the process in {@code dir}, its output appended to {@code dir/redis.log}.
     *
     * @throws RedisServerException if it cannot be spawned
     */
    Process spawn(Path dir) {
        try {
            Path config = dir.resolve(CONFIG_FILE);
            if (!Files.exists(config)) {
                // sentinel mode needs a writable config file; everything else is on the command line
                Files.writeString(config, "# written by distlock test support; options are on the command line\n",
                        StandardCharsets.UTF_8);
            }
            return new ProcessBuilder(command(dir))
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(Redirect.appendTo(dir.resolve(LOG_FILE).toFile()))
                    .start();
        } catch (IOException e) {
            throw new RedisServerException("Could not spawn " + binary + " for port " + port, e);
        }
    }

    /**
     * Waits until {@code started} answers on the port, within the startup timeout.
     *
     * @param logOffset where this start's output begins in the log (earlier starts wrote before it)
     * @throws PortInUseException if the process exited because the port was taken
     * @throws RedisServerException if it exited for another reason or did not answer in time
     */
    void awaitReady(Process started, Path dir, long logOffset) {
        long deadline = System.nanoTime() + options.startupTimeout().toNanos();
        String password = options.password().orElse(null);
        Path logFile = dir.resolve(LOG_FILE);
        while (true) {
            if (!started.isAlive()) {
                String output = LogFiles.readFrom(logFile, logOffset);
                if (output.contains("Address already in use") || output.contains("Address in use")) {
                    throw new PortInUseException(port);
                }
                throw new RedisServerException(describe(started) + " exited with code " + started.exitValue()
                        + " while starting; command: " + command(dir) + "\nlast lines of " + logFile + ":\n"
                        + LogFiles.tail(output, LOG_TAIL_LINES));
            }
            long answeringPid = RespProbe.processId(RedisServer.HOST, port, password, PROBE_TIMEOUT);
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

    String describe(Process process) {
        return "redis-server on port " + port + " (pid " + process.pid() + ")";
    }

    private List<String> command(Path dir) {
        List<String> command = new ArrayList<>();
        if (options.ownSession() && Files.isExecutable(SETSID)) {
            // a child of the JVM is not a process group leader, so setsid execs redis-server in place: same pid
            command.add(SETSID.toString());
        }
        command.addAll(List.of(
                binary.toString(), dir.resolve(CONFIG_FILE).toString(),
                "--port", Integer.toString(port),
                "--bind", RedisServer.HOST,
                "--save", "",
                "--appendonly", "no",
                "--protected-mode", "no",
                "--daemonize", "no",
                "--dir", dir.toString()));
        command.addAll(options.extraArgs());
        return command;
    }
}
