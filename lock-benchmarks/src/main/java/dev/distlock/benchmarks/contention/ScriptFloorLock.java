package dev.distlock.benchmarks.contention;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.jspecify.annotations.Nullable;

/**
 * The floor under distlock's uncontended cycle: the same Redis commands the reentrant lock sends when nobody waits,
 * from a bare client. Acquire is one plain {@code SET NX PX GET} of the hold {@code owner|} (the fencing token is
 * minted only when the holder asks for it; an unminted hold found by another attempt is checked against its owner's
 * tombstone there, off this path); release is one {@code EVALSHA} running {@code GET} and {@code DEL}, a
 * compare-and-delete of exactly {@code owner|} (a waiter queueing behind the hold would have changed it), replying with
 * one integer as distlock's does. No lease tracking, watchdog, timeouts, futures or reentrancy, and it never waits:
 * used only in the uncontended scenario.
 *
 * <p>Its ratio to the baseline is what the Redis side of distlock's uncontended cycle costs (the owner check of the
 * release, the hold's shape) whatever the client does; distlock's ratio to it is what the client side costs on top.
 */
final class ScriptFloorLock implements LockClient {

    static final LockSubject SUBJECT = LockSubject.of("script floor", false, ScriptFloorLock::new);

    private static final String RELEASE = """
            local holder = redis.call('get', KEYS[1])
            if holder == ARGV[1] .. '|' then redis.call('del', KEYS[1]) return 1 end
            if holder and string.sub(holder, 1, #ARGV[1] + 1) == ARGV[1] .. '|' then return 2 end
            return 0
            """;

    private static final long LEASE_MILLIS = 30_000;

    private final RedisClient client;

    private final StatefulRedisConnection<String, String> connection;

    private final RedisCommands<String, String> commands;

    private final SyncScript release;

    private final String tokenPrefix = Long.toHexString(ThreadLocalRandom.current().nextLong()) + ":";

    private final AtomicLong tokens = new AtomicLong();

    private ScriptFloorLock(RedisURI uri) {
        this.client = RedisClient.create(uri);
        this.connection = this.client.connect();
        this.commands = this.connection.sync();
        this.release = SyncScript.load(this.commands, RELEASE);
    }

    @Override
    public @Nullable Held tryAcquire(String key, Duration wait) {
        String token = this.tokenPrefix + this.tokens.incrementAndGet();
        String lock = "floor:{" + key + "}";
        if (this.commands.setGet(lock, token + "|", SetArgs.Builder.nx().px(LEASE_MILLIS)) != null) {
            return null;
        }
        return () -> this.release.run(this.commands, ScriptOutputType.INTEGER, new String[] { lock }, token);
    }

    @Override
    public void close() {
        this.connection.close();
        this.client.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
