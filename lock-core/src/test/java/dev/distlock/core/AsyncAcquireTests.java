package dev.distlock.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

class AsyncAcquireTests extends RedisLockTest {

    @Test
    void asyncAcquireCompletesWithALeaseOffTheIoThreads(RedisLockClient client, RedisCommands<String, String> raw)
            throws Exception {
        CompletableFuture<String> thread = client.getLock("async").acquireAsync(Duration.ZERO)
            .thenApply((lease) -> {
                lease.close();
                return Thread.currentThread().getName();
            })
            .toCompletableFuture();
        assertThat(thread.get(10, TimeUnit.SECONDS)).doesNotContain("lettuce").doesNotContain("nioEventLoop");
        assertThat(raw.exists("lock:{async}")).isZero();
    }

    @Test
    void asyncAcquisitionsAreNotReentrant(RedisLockClient client) throws Exception {
        RedisLock lock = client.getLock("async-exclusive");
        LockLease first = lock.acquireAsync(Duration.ZERO).toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertThatExceptionOfType(ExecutionException.class)
            .isThrownBy(() -> lock.acquireAsync(Duration.ZERO).toCompletableFuture().get(10, TimeUnit.SECONDS))
            .withCauseInstanceOf(LockNotAcquiredException.class);
        CompletableFuture<LockLease> second = lock.acquireAsync(Duration.ofSeconds(10)).toCompletableFuture();
        Thread.sleep(200);
        assertThat(second).isNotDone();
        first.close();
        try (LockLease lease = second.get(10, TimeUnit.SECONDS)) {
            assertThat(lease.fencingToken()).isGreaterThan(first.fencingToken());
        }
    }

    @Test
    void cancellingAWaitingAcquisitionLeavesNoGrantBehind(RedisLockClient client, RedisCommands<String, String> raw)
            throws Exception {
        LockLease held = client.getLock("cancelled").acquire(Duration.ZERO);
        CompletableFuture<LockLease> waiting = client.getLock("cancelled").acquireAsync(Duration.ofSeconds(30))
            .toCompletableFuture();
        await().atMost(Duration.ofSeconds(5)).until(() -> client.waitingLockCount() > 0);
        waiting.cancel(false);
        held.close();
        await().atMost(Duration.ofSeconds(3)).until(() -> client.waitingLockCount() == 0);
        Thread.sleep(300);
        assertThat(raw.exists("lock:{cancelled}")).isZero();
        assertThat(client.activeLeaseCount()).isZero();
    }
}
