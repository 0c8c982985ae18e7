package dev.distlock.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A child JVM running a {@code main} class on this JVM's class path, so that a test can freeze it with SIGSTOP
 * (its watchdog threads too) or kill it with SIGKILL, like a real crashed or paused application.
 *
 * <p>Promises: every line the child writes to stdout is handed to the line consumer (on a reader thread, in order);
 * stderr goes to a log file whose tail {@link #logTail(int)} returns for error messages. Lines sent with
 * {@link #send(String)} arrive on the child's stdin. {@link #close()} kills the child (SIGKILL after a short grace
 * period once stdin is closed) and waits for it; a JVM shutdown hook kills children this JVM forgot.
 */
public final class ChildJvm implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ChildJvm.class);

    /** JVM options that make a small child start fast and stay small. */
    public static final List<String> SMALL_JVM = List.of("-Xmx192m", "-Xss512k", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-Xshare:auto");

    private final String name;
    private final Process process;
    private final Path directory;
    private final Writer stdin;
    private final Thread reader;
    private boolean paused;

    private ChildJvm(String name, Process process, Path directory, Consumer<String> lines) {
        this.name = name;
        this.process = process;
        this.directory = directory;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.reader = new Thread(() -> readLines(lines), "child-jvm-" + name + "-stdout");
        this.reader.setDaemon(true);
        this.reader.start();
    }

    /**
     * Starts {@code java <jvmOptions> <mainClass> <args>} with this JVM's class path.
     *
     * @param name a name for logs and thread names
     * @param mainClass the class whose {@code main} runs
     * @param jvmOptions options such as {@code -Dkey=value} (e.g. {@link #SMALL_JVM})
     * @param args the program arguments
     * @param lines receives every stdout line
     * @return the running child
     * @throws RedisServerException if it cannot be spawned
     */
    public static ChildJvm start(String name, String mainClass, List<String> jvmOptions, List<String> args,
            Consumer<String> lines) {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add(mainClass);
        command.addAll(args);
        Path directory;
        Process process;
        try {
            directory = TempDirs.create("distlock-child-" + name + "-");
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(directory.toFile())
                    .redirectError(Redirect.to(directory.resolve("stderr.log").toFile()));
            // the class path goes through the environment: no argv length limit, works with surefire's booter jar
            builder.environment().put("CLASSPATH", classPath());
            process = builder.start();
        } catch (IOException e) {
            throw new RedisServerException("Could not start child JVM " + name + ": " + command, e);
        }
        Reaper.track(process);
        log.debug("started child JVM {} (pid {})", name, process.pid());
        return new ChildJvm(name, process, directory, lines);
    }

    /** The class path of this JVM's tests (surefire's real one when it runs from a booter jar). */
    public static String classPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return (surefire != null && !surefire.isBlank()) ? surefire : System.getProperty("java.class.path");
    }

    /** The child's name. */
    public String name() {
        return name;
    }

    /** The child's pid. */
    public long pid() {
        return process.pid();
    }

    /** Whether the process is alive (a paused one is). */
    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Sends one line to the child's stdin.
     *
     * @throws IllegalStateException if the child's stdin is closed (it exited)
     */
    public synchronized void send(String line) {
        try {
            stdin.write(line);
            stdin.write('\n');
            stdin.flush();
        } catch (IOException e) {
            throw new IllegalStateException("child JVM " + name + " does not take input any more (alive: "
                    + process.isAlive() + ")\n" + logTail(20), e);
        }
    }

    /** Freezes the whole child with SIGSTOP; returns once the kernel reports it stopped. */
    public synchronized void pause() {
        ProcessSignals.stop(process.pid());
        paused = true;
    }

    /** Continues a {@linkplain #pause() paused} child with SIGCONT. */
    public synchronized void resume() {
        if (paused) {
            ProcessSignals.resume(process.pid());
            paused = false;
        }
    }

    /** Kills the child with SIGKILL (no shutdown hooks, no goodbye) and waits up to 5 s for it to die. */
    public synchronized void kill9() {
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(5));
        paused = false;
    }

    /**
     * Waits for the child to exit by itself.
     *
     * @return true if it exited within the timeout
     */
    public boolean awaitExit(Duration timeout) {
        try {
            boolean exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (exited) {
                Reaper.untrack(process);
                reader.join(2_000);
            }
            return exited;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The exit code; throws if the child is still running. */
    public int exitValue() {
        return process.exitValue();
    }

    /** The last lines the child wrote to stderr. */
    public String logTail(int lines) {
        return LogFiles.tail(LogFiles.readFrom(directory.resolve("stderr.log"), 0), lines);
    }

    /**
     * Ends the child: continues it if paused, closes its stdin, gives it 2 s to exit, then SIGKILL. Deletes its
     * directory. Idempotent.
     */
    @Override
    public synchronized void close() {
        try {
            if (process.isAlive()) {
                if (paused) {
                    ProcessSignals.send(process.pid(), "CONT");
                    paused = false;
                }
                try {
                    stdin.close();
                } catch (IOException e) {
                    // it may be gone already
                }
                if (!process.waitFor(2, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    if (!process.waitFor(5, TimeUnit.SECONDS)) {
                        throw new RedisServerException("child JVM " + name + " (pid " + pid()
                                + ") survived SIGKILL for 5 s");
                    }
                }
            }
            Reaper.untrack(process);
            reader.join(2_000);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            TempDirs.delete(directory);
        }
    }

    @Override
    public String toString() {
        return "ChildJvm[" + name + ", pid " + process.pid() + (process.isAlive() ? "" : ", exited") + "]";
    }

    private void readLines(Consumer<String> lines) {
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                try {
                    lines.accept(line);
                } catch (RuntimeException e) {
                    log.warn("line consumer of child JVM {} failed on: {}", name, line, e);
                }
            }
        } catch (IOException e) {
            log.debug("stdout of child JVM {} closed: {}", name, e.toString());
        }
    }
}
