package dev.distlock.testsupport;

import java.time.Duration;

/** Sleeping in polling loops, turning interruption into a {@link RedisServerException}. */
final class Sleeps {

    private Sleeps() {
    }

    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisServerException("Interrupted while waiting", e);
        }
    }
}
