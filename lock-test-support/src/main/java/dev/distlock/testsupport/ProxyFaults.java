package dev.distlock.testsupport;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import dev.distlock.testsupport.FaultProxy.Direction;

/**
 * The faults a {@link FaultProxy} has switched on, and what they have discarded so far: written by the test thread,
 * read by every {@link ProxyLink} as each chunk passes.
 */
final class ProxyFaults {

    volatile boolean blackhole;
    volatile boolean halfOpen;
    volatile boolean dropPubSub;
    volatile boolean blackholeSubscribers;
    private final long[] delayBaseNanos = new long[2];
    private final long[] delayJitterNanos = new long[2];

    final AtomicLong droppedMessages = new AtomicLong();
    final AtomicLong droppedReplyBytes = new AtomicLong();

    void pass() {
        blackhole = false;
        halfOpen = false;
        dropPubSub = false;
        blackholeSubscribers = false;
        for (Direction direction : Direction.values()) {
            delayBaseNanos[direction.ordinal()] = 0;
            delayJitterNanos[direction.ordinal()] = 0;
        }
    }

    void delay(Direction direction, Duration base, Duration jitter) {
        if (base.isNegative() || jitter.isNegative() || jitter.compareTo(base) > 0) {
            throw new IllegalArgumentException("need 0 <= jitter <= base, got base " + base + ", jitter " + jitter);
        }
        delayJitterNanos[direction.ordinal()] = jitter.toNanos();
        delayBaseNanos[direction.ordinal()] = base.toNanos();
    }

    /** The delay for the next chunk in this direction: {@code base ± jitter}, uniform; zero when none is set. */
    long delayNanos(Direction direction) {
        long base = delayBaseNanos[direction.ordinal()];
        long jitter = delayJitterNanos[direction.ordinal()];
        if (base == 0) {
            return 0;
        }
        return (jitter == 0) ? base : base - jitter + ThreadLocalRandom.current().nextLong(2 * jitter + 1);
    }
}
