package dev.distlock.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.LeaseLoss;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockOperationException;
import dev.distlock.core.RedisLockClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * F5, S3 and L4: the redis-server process is frozen with SIGSTOP for 1.5x the lease while locks are held and calls are
 * made.
 */
@DisplayName("F5 redis-server paused with SIGSTOP for 1.5x lease")
class PausedRedisTests extends SingleServerFaultTest {

    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(1);

    @AfterEach
    void tearDown() throws Exception {
        if (redis.server().isPaused()) {
            redis.server().resume();
        }
    }

    @Test
    void holdersReportLostNearTheirDeadlineAndNoCallBlocksPastItsBound() throws Exception {
        RedisLockClient client = this.clients.lockClient(redis.uri(),
                Clients.fastOptions().operationTimeout(OPERATION_TIMEOUT).build());
        List<LockLease> leases = new ArrayList<>();
        List<CompletableFuture<Long>> lostAt = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            // three watchdog leases and one fixed lease of the same length
            LockLease lease = (i < 3) ? client.getLock("f5-" + i).acquire(Duration.ZERO)
                    : client.getLock("f5-" + i).acquire(Duration.ZERO, Clients.LEASE);
            CompletableFuture<Long> lost = new CompletableFuture<>();
            lease.addLossListener((LeaseLoss loss) -> lost.complete(System.nanoTime()));
            leases.add(lease);
            lostAt.add(lost);
        }
        Thread.sleep(300);
        long pausedAt = System.nanoTime();
        long[] deadlines = leases.stream().mapToLong((l) -> System.nanoTime() + l.remainingValidity().toNanos())
            .toArray();
        redis.server().pause();
        try {
            // L4: calls return within waitTime + operation timeout while Redis does not answer
            Duration wait = Duration.ofMillis(300);
            long start = System.nanoTime();
            assertThatThrownBy(() -> client.getLock("f5-new").tryAcquire(wait))
                .isInstanceOf(LockOperationException.class);
            long acquireTook = System.nanoTime() - start;
            start = System.nanoTime();
            assertThatThrownBy(() -> client.getLock("f5-0").isLocked()).isInstanceOf(LockOperationException.class);
            long isLockedTook = System.nanoTime() - start;

            for (CompletableFuture<Long> lost : lostAt) {
                lost.get(Clients.LEASE.toMillis() + 2_000, TimeUnit.MILLISECONDS);
            }
            long[] delays = new long[leases.size()];
            for (int i = 0; i < leases.size(); i++) {
                delays[i] = lostAt.get(i).join() - deadlines[i];
            }
            start = System.nanoTime();
            assertThatThrownBy(leases.get(0)::close).isInstanceOf(LockLostException.class);
            long closeTook = System.nanoTime() - start;
            long sleep = Clients.LEASE.toMillis() * 3 / 2 - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - pausedAt);
            if (sleep > 0) {
                Thread.sleep(sleep);
            }
            Measured.report("F5", "LOST after validity deadline: " + java.util.Arrays.stream(delays)
                .mapToObj((d) -> Measured.millis(0, d)).toList() + " (negative: before it); tryAcquire(wait 300 ms) "
                + "returned after " + Measured.millis(0, acquireTook) + ", isLocked after "
                + Measured.millis(0, isLockedTook) + ", close of a lost lease after " + Measured.millis(0, closeTook)
                + " (operation timeout " + OPERATION_TIMEOUT.toMillis() + " ms, Redis paused "
                + Clients.LEASE.toMillis() * 3 / 2 + " ms)");

            Duration bound = wait.plus(OPERATION_TIMEOUT).plusMillis(300);
            assertThat(Duration.ofNanos(acquireTook)).as("tryAcquire while paused").isLessThanOrEqualTo(bound);
            assertThat(Duration.ofNanos(isLockedTook)).isLessThanOrEqualTo(OPERATION_TIMEOUT.plusMillis(300));
            assertThat(Duration.ofNanos(closeTook)).isLessThanOrEqualTo(OPERATION_TIMEOUT.plusMillis(300));
            for (long delay : delays) {
                // told at or shortly after the deadline: one watchdog tick (125 ms) plus scheduling slack
                assertThat(Duration.ofNanos(delay)).isBetween(Duration.ofMillis(-5), Duration.ofMillis(300));
            }
            assertThat(leases).noneMatch(LockLease::isHeld);
        }
        finally {
            redis.server().resume();
        }
        long resumedAt = System.nanoTime();
        try (LockLease again = client.getLock("f5-0").acquire(Duration.ofSeconds(5))) {
            Measured.report("F5", "first acquire after SIGCONT took " + Measured.millis(resumedAt, System.nanoTime()));
            assertThat(again.isHeld()).isTrue();
        }
        for (LockLease lease : leases.subList(1, leases.size())) {
            assertThatThrownBy(lease::close).isInstanceOf(LockLostException.class);
        }
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(client.activeLeaseCount()).isZero();
            assertThat(Quiesce.leftoverLockKeys(this.raw)).isEmpty();
        });
    }
}
