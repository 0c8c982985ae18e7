package dev.distlock.benchmarks.contention;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.RedisLock;
import dev.distlock.core.LockClientOptions;
import dev.distlock.core.LockLease;
import dev.distlock.core.RedisLockClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import org.jspecify.annotations.Nullable;

/**
 * A distlock client instance through the public API only: its own {@link RedisClient}, a {@link RedisLockClient}
 * with default options, and either {@link RedisLockClient#getLock(String)} or
 * {@link RedisLockClient#getFairLock(String)}; watchdog leases, released by closing the lease.
 */
final class DistlockClient implements LockClient {

    static final LockSubject REENTRANT = subject("distlock reentrant", false);

    static final LockSubject FAIR = subject("distlock fair", true);

    private final RedisClient redisClient;

    private final RedisLockClient locks;

    private final boolean fair;

    private final Map<String, RedisLock> byName = new ConcurrentHashMap<>();

    private DistlockClient(RedisURI uri, boolean fair) {
        this.redisClient = RedisClient.create(uri);
        this.locks = RedisLockClient.create(this.redisClient, LockClientOptions.defaults());
        this.fair = fair;
    }

    private static LockSubject subject(String label, boolean fair) {
        return LockSubject.of(label, false, (uri) -> new DistlockClient(uri, fair));
    }

    @Override
    public @Nullable Held tryAcquire(String key, Duration wait) throws InterruptedException {
        RedisLock lock = this.byName.computeIfAbsent(key,
                name -> this.fair ? this.locks.getFairLock(name) : this.locks.getLock(name));
        Optional<LockLease> lease = lock.tryAcquire(wait);
        return lease.<Held>map(held -> held::close).orElse(null);
    }

    @Override
    public void close() {
        this.locks.close();
        this.redisClient.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
