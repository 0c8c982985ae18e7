package dev.distlock.core.internal.redis;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How one check of a {@link SentinelMasterFollower} reports moves to the master that keep failing: each retry at
 * DEBUG; once they have failed for {@link #PATIENCE}, one WARN (the follower keeps trying); and when a move succeeds
 * after that warning, an INFO saying how long it took.
 */
final class FailedMoves {

    /** The system property that shortens {@link #PATIENCE}, in milliseconds: for fault tests, not for applications. */
    static final String PATIENCE_PROPERTY = "distlock.sentinel.patience-millis";

    /** How long moves may fail before the follower warns that it still cannot reach the master (it keeps trying). */
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    /** The follower's logger: operators find these lines where they found them before. */
    private static final Logger logger = LoggerFactory.getLogger(SentinelMasterFollower.class);

    private final String masterId;

    private final Duration patience;

    private final long started = System.nanoTime();

    private boolean warned;

    /** Starts counting now, for one check. */
    FailedMoves(String masterId, Duration patience) {
        this.masterId = masterId;
        this.patience = patience;
    }

    /** A move failed; the next one comes after {@code delayMillis}, at most {@code maxDelayMillis} apart. */
    void failed(MasterAddress master, long delayMillis, long maxDelayMillis, RuntimeException ex) {
        if (!this.warned && System.nanoTime() - this.started - this.patience.toNanos() > 0) {
            this.warned = true;
            logger.warn("Cannot move the lock connections to Redis master '{}' at {} for {} s (lock calls "
                    + "fail fast meanwhile if the old master was replaced); still trying every {} ms: {}",
                    this.masterId, master, secondsSinceStart(), maxDelayMillis, ex.toString());
        }
        else {
            logger.debug("Moving the lock connections to Redis master '{}' at {} failed, retrying in {} ms: {}",
                    this.masterId, master, delayMillis, ex.toString());
        }
    }

    /** A move succeeded. */
    void moved(MasterAddress master) {
        if (this.warned) {
            logger.info("Lock connections moved to Redis master '{}' at {} after {} s of failed attempts",
                    this.masterId, master, secondsSinceStart());
        }
    }

    private long secondsSinceStart() {
        return TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - this.started);
    }

    /**
     * {@link #PATIENCE}, or the {@value #PATIENCE_PROPERTY} system property when set (fault tests shorten it to show
     * that following outlasts the point where it used to give up).
     *
     * @throws IllegalArgumentException if the property is not a positive number of milliseconds
     */
    static Duration patience() {
        String value = System.getProperty(PATIENCE_PROPERTY);
        if (value == null || value.isBlank()) {
            return PATIENCE;
        }
        try {
            long millis = Long.parseLong(value.strip());
            if (millis > 0) {
                return Duration.ofMillis(millis);
            }
        }
        catch (NumberFormatException ex) {
            // reported below
        }
        throw new IllegalArgumentException("System property " + PATIENCE_PROPERTY + " must be a positive number of "
                + "milliseconds, was '" + value + "'; remove it to use the default (" + PATIENCE.toMillis() + ")");
    }
}
