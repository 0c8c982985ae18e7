package dev.distlock.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Asks a server binary what it is ({@code --version}), so a test run can say which server it used and a wrong
 * {@value RedisBinary#OVERRIDE_ENV} fails at once with the binary's own words instead of a start-up timeout.
 */
final class RedisVersion {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    // "Redis server v=7.0.15 sha=..." or "Valkey server v=9.1.2 sha=..."
    private static final Pattern LINE = Pattern.compile("(\\w+) server v=(\\S+)");

    private RedisVersion() {
    }

    /**
     * Runs {@code binary --version}.
     *
     * @return e.g. {@code Redis 7.0.15} or {@code Valkey 9.1.2}
     * @throws RedisServerException if the binary does not run or does not answer like a redis-server
     */
    static String of(Path binary) {
        String output = run(binary);
        return parse(output).orElseThrow(() -> new RedisServerException(binary + " --version did not answer like"
                + " a redis-server (expected 'Redis server v=...' or 'Valkey server v=...'), it printed: " + output
                + "\nIf it came from " + RedisBinary.OVERRIDE_ENV + ", point that variable at a redis-server or"
                + " valkey-server binary, or at a wrapper made by .ci/servers.sh"));
    }

    static Optional<String> parse(String versionOutput) {
        Matcher matcher = LINE.matcher(versionOutput);
        return matcher.find() ? Optional.of(matcher.group(1) + " " + matcher.group(2)) : Optional.empty();
    }

    private static String run(Path binary) {
        try {
            Process process = new ProcessBuilder(binary.toString(), "--version").redirectErrorStream(true).start();
            process.getOutputStream().close();
            if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new RedisServerException(binary + " --version did not finish within " + TIMEOUT);
            }
            return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new RedisServerException("Could not run " + binary + " --version", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisServerException("Interrupted while running " + binary + " --version", e);
        }
    }
}
