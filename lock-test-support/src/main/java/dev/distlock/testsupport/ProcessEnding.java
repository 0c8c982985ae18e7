package dev.distlock.testsupport;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How {@link RedisServer} ends its process: gracefully (SIGCONT if paused, SIGTERM, then SIGKILL if it lingers) or
 * like a crash (SIGKILL at once), each wait bounded by the stop timeout.
 */
final class ProcessEnding {

    private static final Logger log = LoggerFactory.getLogger(ProcessEnding.class);

    private ProcessEnding() {
    }

    /**
     * Ends {@code current} and waits for it, then stops the {@link Reaper} tracking it.
     *
     * @param paused whether the process is frozen by SIGSTOP (a graceful end resumes it first)
     * @param name the process in messages
     * @throws RedisServerException if it survives SIGKILL or the wait is interrupted
     */
    static void end(Process current, boolean graceful, boolean paused, Duration stopTimeout, String name) {
        try {
            if (current.isAlive()) {
                if (graceful) {
                    if (paused) {
                        resumeQuietly(current, name);
                    }
                    current.destroy();
                    if (!current.waitFor(stopTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                        log.warn("{} ignored SIGTERM for {}, killing it", name, stopTimeout);
                    }
                }
                if (current.isAlive()) {
                    current.destroyForcibly();
                    if (!current.waitFor(stopTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                        throw new RedisServerException(name + " survived SIGKILL for " + stopTimeout);
                    }
                }
            }
            Reaper.untrack(current);
        } catch (InterruptedException e) {
            current.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new RedisServerException("Interrupted while stopping " + name, e);
        }
    }

    private static void resumeQuietly(Process current, String name) {
        try {
            ProcessSignals.send(current.pid(), "CONT");
        } catch (RedisServerException e) {
            log.debug("could not resume {} before stopping it; it will be killed if needed", name, e);
        }
    }
}
