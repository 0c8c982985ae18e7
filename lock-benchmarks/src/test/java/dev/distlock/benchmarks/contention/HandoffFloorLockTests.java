package dev.distlock.benchmarks.contention;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The breakdown's handoff floor is a working lock: a queued waiter is handed the lock by the holder's release (the
 * same {@code unlock.lua} distlock runs), and a waiter whose wait ends leaves the queue.
 */
class HandoffFloorLockTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    private static final String KEY = "k";

    private static final String QUEUE = "floor:{k}:q";

    private LockClient holder;

    private LockClient waiter;

    private RedisClient rawClient;

    private RedisCommands<String, String> raw;

    @BeforeEach
    void setUp() {
        redis.flushAll();
        RedisURI uri = RedisURI.create(redis.uri());
        this.holder = HandoffFloorLock.SUBJECT.open(uri);
        this.waiter = HandoffFloorLock.SUBJECT.open(uri);
        this.rawClient = RedisClient.create(uri);
        StatefulRedisConnection<String, String> connection = this.rawClient.connect();
        this.raw = connection.sync();
    }

    @AfterEach
    void tearDown() {
        this.holder.close();
        this.waiter.close();
        this.rawClient.shutdown(0, 2, TimeUnit.SECONDS);
    }

    @Test
    void aQueuedWaiterIsHandedTheLockByTheRelease() throws Exception {
        LockClient.Held held = this.holder.tryAcquire(KEY, Duration.ZERO);
        assertThat(held).isNotNull();
        CompletableFuture<LockClient.Held> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return this.waiter.tryAcquire(KEY, Duration.ofSeconds(30));
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return null;
            }
        });
        awaitQueueLength(1);
        assertThat(this.waiter.tryAcquire("other", Duration.ZERO)).as("a free key is taken at once").isNotNull();

        held.release();

        LockClient.Held handed = waiting.get(20, TimeUnit.SECONDS);
        assertThat(handed).isNotNull();
        assertThat(this.raw.get("floor:{k}")).endsWith("|-");
        assertThat(this.raw.llen(QUEUE)).isZero();
        handed.release();
        assertThat(this.raw.exists("floor:{k}")).isZero();
    }

    @Test
    void aWaiterWhoseWaitEndsLeavesTheQueueAndHoldsNothing() throws Exception {
        LockClient.Held held = this.holder.tryAcquire(KEY, Duration.ZERO);
        assertThat(held).isNotNull();

        assertThat(this.waiter.tryAcquire(KEY, Duration.ofMillis(200))).isNull();

        assertThat(this.raw.llen(QUEUE)).isZero();
        held.release();
        assertThat(this.raw.exists("floor:{k}")).as("released with nobody queued: deleted").isZero();
    }

    private void awaitQueueLength(long expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        for (int polls = 0; polls < 2_000 && System.nanoTime() < deadline; polls++) {
            if (this.raw.llen(QUEUE) == expected) {
                return;
            }
            Thread.sleep(10);
        }
        assertThat(this.raw.llen(QUEUE)).as("waiters queued").isEqualTo(expected);
    }
}
