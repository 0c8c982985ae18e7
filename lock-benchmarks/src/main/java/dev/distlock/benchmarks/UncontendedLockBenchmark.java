package dev.distlock.benchmarks;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.RedisLock;
import dev.distlock.core.LockClientOptions;
import dev.distlock.core.LockLease;
import dev.distlock.core.RedisLockClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Acquire + release of a free lock, one thread: the library's hot path (two round trips) against the smallest correct
 * hand-written Lettuce lock ({@code SET NX PX} + compare-and-delete script, also two round trips). The difference is
 * the library's own overhead: owner tokens, fencing, bookkeeping, the watchdog registration.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class UncontendedLockBenchmark {

    private static final String RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then "
            + "return redis.call('del', KEYS[1]) end return 0";

    private RedisForBenchmark redis;

    private RedisLockClient locks;

    private RedisLock lock;

    private StatefulRedisConnection<String, String> raw;

    private RedisCommands<String, String> commands;

    private String releaseSha;

    @Setup(Level.Trial)
    public void start() {
        this.redis = new RedisForBenchmark();
        this.locks = RedisLockClient.create(this.redis.client(), LockClientOptions.defaults());
        this.lock = this.locks.getLock("bench");
        this.raw = this.redis.client().connect();
        this.commands = this.raw.sync();
        this.releaseSha = this.commands.scriptLoad(RELEASE);
    }

    @TearDown(Level.Trial)
    public void stop() {
        this.raw.close();
        this.locks.close();
        this.redis.close();
    }

    @Benchmark
    public long distlockWatchdogLease() throws InterruptedException {
        try (LockLease lease = this.lock.acquire(Duration.ZERO)) {
            return lease.fencingToken();
        }
    }

    @Benchmark
    public long distlockFixedLease() throws InterruptedException {
        try (LockLease lease = this.lock.acquire(Duration.ZERO, Duration.ofSeconds(30))) {
            return lease.fencingToken();
        }
    }

    @Benchmark
    public Object rawLettuceSetNxAndScriptDelete() {
        String owner = Long.toString(ThreadLocalRandom.current().nextLong());
        String ok = this.commands.set("raw-bench", owner, SetArgs.Builder.nx().px(30_000));
        if (!"OK".equals(ok)) {
            throw new IllegalStateException("raw lock was not free");
        }
        return this.commands.evalsha(this.releaseSha, ScriptOutputType.INTEGER, new String[] { "raw-bench" }, owner);
    }
}
