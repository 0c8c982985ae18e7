package dev.distlock.testsupport;

import io.lettuce.core.RedisURI;

/** Typed one-shot commands against a server, for assertions in the tests. */
final class TestRedis {

    private TestRedis() {
    }

    static String ping(RedisServer server) {
        return LettuceCalls.call(LettuceCalls.uriOf(server), redis -> redis.ping());
    }

    static String ping(String uri) {
        return LettuceCalls.call(RedisURI.create(uri), redis -> redis.ping());
    }

    static String set(RedisServer server, String key, String value) {
        return LettuceCalls.call(LettuceCalls.uriOf(server), redis -> redis.set(key, value));
    }

    static String get(RedisServer server, String key) {
        return LettuceCalls.call(LettuceCalls.uriOf(server), redis -> redis.get(key));
    }

    static long dbsize(RedisServer server) {
        return LettuceCalls.call(LettuceCalls.uriOf(server), redis -> redis.dbsize());
    }

    static String info(RedisServer server, String section) {
        return LettuceCalls.call(LettuceCalls.uriOf(server), redis -> redis.info(section));
    }

    /** SET on the master, then WAIT until {@code replicas} replicas acknowledged it; returns how many did. */
    static long setAndWait(RedisServer master, String key, String value, int replicas) {
        return LettuceCalls.call(LettuceCalls.uriOf(master), redis -> {
            redis.set(key, value);
            return redis.waitForReplication(replicas, 5_000);
        });
    }
}
