package dev.distlock.benchmarks.contention;

import io.lettuce.core.RedisURI;

/**
 * A kind of lock the harness measures: a name for the report and a way to open a new client instance (its own Lettuce
 * {@code RedisClient}, i.e. what one process would have).
 */
interface LockSubject {

    /** Short name used in tables and the chart, e.g. {@code polling baseline}. */
    String label();

    /** Whether this is the baseline every other subject is compared with. */
    boolean baseline();

    /** Opens a client instance with its own Lettuce client and connections. */
    LockClient open(RedisURI uri);

    /** A subject with the given label that opens client instances with {@code open}. */
    static LockSubject of(String label, boolean baseline, java.util.function.Function<RedisURI, LockClient> open) {
        return new LockSubject() {
            @Override
            public String label() {
                return label;
            }

            @Override
            public boolean baseline() {
                return baseline;
            }

            @Override
            public LockClient open(RedisURI uri) {
                return open.apply(uri);
            }
        };
    }

    /** The hand-written Lettuce lock, the reentrant distlock lock and the fair distlock lock, in report order. */
    static java.util.List<LockSubject> all() {
        return java.util.List.of(PollingLettuceLock.SUBJECT, DistlockClient.REENTRANT, DistlockClient.FAIR);
    }
}
