package dev.distlock.benchmarks;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.RedisLock;
import dev.distlock.core.LockClientOptions;
import dev.distlock.core.LockLease;
import dev.distlock.core.RedisLockClient;
import io.lettuce.core.RedisClient;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Contended handoff: two threads in two clients (two connections, two pub/sub subscriptions) take turns on one lock,
 * so every acquisition but the uncontended ones waits for the other's release and is woken by pub/sub. The time per
 * operation is acquire (including the wait) + a short hold + release.
 */
@State(Scope.Group)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class HandoffBenchmark {

    private RedisForBenchmark redis;

    private RedisClient secondRedisClient;

    private RedisLockClient first;

    private RedisLockClient second;

    @Setup(Level.Trial)
    public void start() {
        this.redis = new RedisForBenchmark();
        this.secondRedisClient = this.redis.newClient();
        this.first = RedisLockClient.create(this.redis.client(), LockClientOptions.defaults());
        this.second = RedisLockClient.create(this.secondRedisClient, LockClientOptions.defaults());
    }

    @TearDown(Level.Trial)
    public void stop() {
        this.first.close();
        this.second.close();
        this.secondRedisClient.shutdown();
        this.redis.close();
    }

    @Benchmark
    @Group("handoff")
    @GroupThreads(1)
    public long firstClient() throws InterruptedException {
        return holdBriefly(this.first.getLock("handoff"));
    }

    @Benchmark
    @Group("handoff")
    @GroupThreads(1)
    public long secondClient() throws InterruptedException {
        return holdBriefly(this.second.getLock("handoff"));
    }

    private static long holdBriefly(RedisLock lock) throws InterruptedException {
        try (LockLease lease = lock.acquire(Duration.ofSeconds(10))) {
            Thread.onSpinWait();
            return lease.fencingToken();
        }
    }
}
