package dev.distlock.benchmarks.contention;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.jspecify.annotations.Nullable;

/**
 * The baseline: the smallest correct hand-written Lettuce lock. Acquire is {@code SET key token NX PX 30000}; a
 * refused attempt sleeps 1 ms and tries again until the wait time is over. Release is a compare-and-delete script
 * ({@code EVALSHA}). Tokens are a random per-client prefix and a counter. No reentrancy, no watchdog, no fencing,
 * no queue: this is what a team writes in an afternoon, and what the library has to beat.
 */
final class PollingLettuceLock implements LockClient {

    static final LockSubject SUBJECT = LockSubject.of("polling baseline", true, PollingLettuceLock::new);

    private static final String RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then "
            + "return redis.call('del', KEYS[1]) end return 0";

    private static final long LEASE_MILLIS = 30_000;

    private final RedisClient client;

    private final StatefulRedisConnection<String, String> connection;

    private final RedisCommands<String, String> commands;

    private final String releaseSha;

    private final String tokenPrefix = Long.toHexString(ThreadLocalRandom.current().nextLong()) + ":";

    private final AtomicLong tokens = new AtomicLong();

    private PollingLettuceLock(RedisURI uri) {
        this.client = RedisClient.create(uri);
        this.connection = this.client.connect();
        this.commands = this.connection.sync();
        this.releaseSha = this.commands.scriptLoad(RELEASE);
    }

    @Override
    public @Nullable Held tryAcquire(String key, Duration wait) throws InterruptedException {
        String token = this.tokenPrefix + this.tokens.incrementAndGet();
        long deadline = System.nanoTime() + wait.toNanos();
        while (!"OK".equals(this.commands.set(key, token, SetArgs.Builder.nx().px(LEASE_MILLIS)))) {
            if (System.nanoTime() - deadline >= 0) {
                return null;
            }
            TimeUnit.MILLISECONDS.sleep(1);
        }
        return () -> release(key, token);
    }

    private void release(String key, String token) {
        try {
            this.commands.evalsha(this.releaseSha, ScriptOutputType.INTEGER, new String[] { key }, token);
        }
        catch (RedisNoScriptException ex) {
            this.commands.eval(RELEASE, ScriptOutputType.INTEGER, new String[] { key }, token);
        }
    }

    @Override
    public void close() {
        this.connection.close();
        this.client.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
