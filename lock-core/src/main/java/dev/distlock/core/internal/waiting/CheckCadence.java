package dev.distlock.core.internal.waiting;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.internal.protocol.QueueReply;

/**
 * How long a waiter sleeps before it checks on Redis itself, in case the wake-up it waits for was lost: never past
 * the moment the holder's lease can have ended (a check then takes over from a dead holder), and jittered, so that
 * waiters in different processes that missed the same wake-up do not check all at once.
 */
final class CheckCadence {

    /** Queued waiters further back than this all check at the slowest rate. */
    private static final int SLOWEST_PLACE = 9;

    private CheckCadence() {
    }

    /**
     * A queued waiter: the head checks every back-off (only it can be handed the lock next); the waiter k places
     * back every {@code (k + 1)^2} back-offs, so a long queue costs a bounded number of checks per back-off step. A
     * waiter that queued third or further back is not told the holder's lease ({@code acquire.lua}: one command less
     * per contended grant): the two ahead of it check when it can end, and its own check learns it.
     */
    static long queued(Duration maxBackoff, QueueReply reply) {
        long behind = Math.max(0, Math.min(reply.position(), SLOWEST_PLACE));
        return untilLeaseEnd(jittered(maxBackoff.toNanos() * (behind + 1) * (behind + 1)), reply.holderPttlMillis());
    }

    /** A waiter that is not queued (it races for the lock when woken): every back-off. */
    static long racing(long maxBackoffNanos, long holderPttlMillis) {
        return untilLeaseEnd(jittered(maxBackoffNanos), holderPttlMillis);
    }

    /** Between half the bound and the bound. */
    static long jittered(long boundNanos) {
        return boundNanos / 2 + ThreadLocalRandom.current().nextLong(boundNanos / 2 + 1);
    }

    private static long untilLeaseEnd(long sleepNanos, long holderPttlMillis) {
        if (holderPttlMillis < 0) {
            return sleepNanos;
        }
        return Math.min(sleepNanos, TimeUnit.MILLISECONDS.toNanos(holderPttlMillis + 1));
    }
}
