package dev.distlock.reliability;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.RedisLockClient;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * F30: the waiter's pub/sub connection stops answering (the proxy holds every byte on it, the {@code SUBSCRIBE}
 * included), while its command connection works. A queued lock's waiter subscribes to the name's wake channel before
 * it queues; that subscription never confirms. The waiter's Lettuce client keeps Lettuce's default command timeout
 * (60 s), as an application's would, so only the lock client's own deadlines bound the wait.
 */
@DisplayName("F30 wake-channel subscription never confirmed")
class HangingSubscriptionTests extends SingleServerFaultTest {

    private static final Duration WAIT = Duration.ofMillis(300);

    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(1);

    /** Scheduling and a few round trips on a loaded machine; far below Lettuce's 60 s. */
    private static final Duration SLACK = Duration.ofSeconds(3);

    @Test
    void asyncAcquisitionsGiveUpAtTheirDeadlineAndLeaveNothingBehind() throws Exception {
        RedisLockClient holder = this.clients.lockClient(redis.uri());
        LockLease single = holder.getLock("f25-single").acquire(Duration.ZERO, Duration.ofSeconds(60));
        LockLease member = holder.getLock("f25-member").acquire(Duration.ZERO, Duration.ofSeconds(60));
        RedisLockClient waiter = waiterClient();
        proxy().blackholeSubscribers();

        long bound = WAIT.plus(OPERATION_TIMEOUT).plus(SLACK).toMillis();
        long singleMillis = failsNotAcquiredWithin(() -> waiter.getLock("f25-single").acquireAsync(WAIT), bound);
        long multiMillis = failsNotAcquiredWithin(
                () -> waiter.getMultiLock("f25-free", "f25-member").acquireAsync(WAIT), bound);
        Measured.report("F30", "with the pub/sub connection silent, acquireAsync(" + WAIT.toMillis()
                + " ms) failed after " + singleMillis + " ms, a 2-lock multi-lock after " + multiMillis
                + " ms (bound " + bound + " ms; operation timeout " + OPERATION_TIMEOUT.toMillis() + " ms)");

        assertThat(this.raw.exists("lock:{f25-single}:queue", "lock:{f25-member}:queue")).as("queue entries")
            .isZero();
        // Leaving the room and releasing the multi-lock's free member follow the failure, without blocking.
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(waiter.waitingLockCount()).as("wait rooms").isZero();
            assertThat(this.raw.exists("lock:{f25-free}")).as("the multi-lock's free member").isZero();
            assertThat(waiter.activeLeaseCount()).as("leases").isZero();
        });
        single.close();
        member.close();
        proxy().pass();
        await().atMost(Duration.ofSeconds(5))
            .untilAsserted(() -> assertThat(Quiesce.leftoverLockKeys(this.raw)).isEmpty());
    }

    @Test
    void theSubscriptionTimesOutAndTheWaiterGetsTheLockByItsChecks() throws Exception {
        RedisLockClient holder = this.clients.lockClient(redis.uri());
        LockLease held = holder.getLock("f25-checks").acquire(Duration.ZERO, Duration.ofSeconds(60));
        RedisLockClient waiter = waiterClient();
        proxy().blackholeSubscribers();

        CompletableFuture<LockLease> waiting = waiter.getLock("f25-checks").acquireAsync(Duration.ofSeconds(20))
            .toCompletableFuture();
        Thread.sleep(OPERATION_TIMEOUT.plusMillis(500).toMillis());
        long releasedAt = System.nanoTime();
        held.close();
        LockLease lease = waiting.get(10, TimeUnit.SECONDS);
        long afterRelease = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - releasedAt);
        Measured.report("F30", "with the pub/sub connection silent, a waiter (wait 20 s) got the lock " + afterRelease
                + " ms after its release, by its own checks (back-off " + Clients.fastOptions().build().maxBackoff()
                    .toMillis() + " ms)");
        assertThat(Duration.ofMillis(afterRelease)).as("from release to grant")
            .isLessThan(Duration.ofSeconds(5));
        lease.close();
    }

    /** Through the proxy, on a Lettuce client with Lettuce's default command timeout. */
    private RedisLockClient waiterClient() {
        LockClientOptions options = Clients.fastOptions().operationTimeout(OPERATION_TIMEOUT).build();
        return this.clients.lockClient(this.clients.redisClient(proxy().uri(), Duration.ofSeconds(60)), options);
    }

    /** Milliseconds from the call until it failed with LockNotAcquiredException, which must be within the bound. */
    private static long failsNotAcquiredWithin(Supplier<CompletionStage<LockLease>> call, long boundMillis) {
        long start = System.nanoTime();
        CompletableFuture<LockLease> acquisition = call.get().toCompletableFuture();
        assertThatThrownBy(() -> acquisition.get(boundMillis, TimeUnit.MILLISECONDS))
            .isInstanceOf(ExecutionException.class)
            .hasCauseInstanceOf(LockNotAcquiredException.class);
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }
}
