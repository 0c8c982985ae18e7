package dev.distlock.spring.leader;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A candidate that records its grants and revocations in a log shared by the candidates of one test, and counts how
 * many candidates of the log lead at once by their own callbacks.
 */
final class RecordingCandidate implements LeaderCandidate {

    /** A grant or revocation seen by one candidate. */
    record Callback(String candidate, boolean granted, long epoch, long nanos, LeadershipContext context) {
    }

    /** The callbacks of every candidate of one test, in order, and the most candidates leading at once. */
    static final class Log {

        final List<Callback> callbacks = new CopyOnWriteArrayList<>();

        final AtomicInteger mostLeadingAtOnce = new AtomicInteger();

        private final AtomicInteger leading = new AtomicInteger();

        List<Callback> select(Predicate<Callback> match) {
            return this.callbacks.stream().filter(match).toList();
        }

        /** Waits, at most {@code timeout}, for a callback that matches; fails naming {@code what}. */
        Callback await(String what, Duration timeout, Predicate<Callback> match) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() - deadline < 0) {
                for (Callback callback : this.callbacks) {
                    if (match.test(callback)) {
                        return callback;
                    }
                }
                Thread.sleep(5);
            }
            throw new AssertionError("no " + what + " within " + timeout + "; callbacks: " + this.callbacks);
        }
    }

    private final String name;

    private final Log log;

    RecordingCandidate(String name, Log log) {
        this.name = name;
        this.log = log;
    }

    @Override
    public void onGranted(LeadershipContext context) {
        this.log.mostLeadingAtOnce.accumulateAndGet(this.log.leading.incrementAndGet(), Math::max);
        this.log.callbacks.add(new Callback(this.name, true, context.epoch(), System.nanoTime(), context));
    }

    @Override
    public void onRevoked(LeadershipContext context) {
        this.log.callbacks.add(new Callback(this.name, false, context.epoch(), System.nanoTime(), context));
        this.log.leading.decrementAndGet();
    }
}
