package dev.distlock.reliability;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.LeaseLoss;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockLostException;
import dev.distlock.core.RedisLockClient;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * F15 and S5: Redis restarts without persistence while a lock is held. Exclusion cannot hold (Redis forgot the grant);
 * this test measures what happens and proves what must still hold: tokens increase, the old holder is told.
 */
@DisplayName("F15 Redis restart without persistence while held")
class RestartWithoutPersistenceTests extends SingleServerFaultTest {

    @Test
    void theGrantIsForgottenButTokensStillIncreaseAndTheOldHolderIsTold() throws Exception {
        RedisLockClient holderClient = this.clients.lockClient(redis.uri());
        RedisLockClient otherClient = this.clients.lockClient(redis.uri());
        LockLease held = holderClient.getLock("f15").acquire(Duration.ZERO);
        CompletableFuture<Long> lostAt = new CompletableFuture<>();
        CompletableFuture<LeaseLoss> loss = new CompletableFuture<>();
        held.addLossListener((l) -> {
            lostAt.complete(System.nanoTime());
            loss.complete(l);
        });

        long restartedAt = System.nanoTime();
        redis.server().restart();
        long upAt = System.nanoTime();
        LockLease second = otherClient.getLock("f15").acquire(Duration.ofSeconds(5));
        long secondAt = System.nanoTime();
        long lost = lostAt.get(5, TimeUnit.SECONDS);
        boolean bothBelievedHeld = lost > secondAt;
        Measured.report("F15", "restart took " + Measured.millis(restartedAt, upAt) + "; another client acquired "
                + Measured.millis(upAt, secondAt) + " after the restart while the first still held its lease (grant "
                + "forgotten: exclusion broken); the first holder was told LOST (" + loss.join().reason() + ") "
                + Measured.millis(upAt, lost) + " after the restart; both believed they held the lock for "
                + (bothBelievedHeld ? Measured.millis(secondAt, lost) : "0 ms") + "; tokens " + held.fencingToken()
                + " -> " + second.fencingToken());

        assertThat(second.fencingToken()).as("token after restart").isGreaterThan(held.fencingToken());
        assertThat(loss.join().reason()).isEqualTo(LeaseLoss.Reason.RENEWAL_REFUSED);
        assertThat(Duration.ofNanos(lost - upAt)).as("old holder told within a renewal period")
            .isLessThanOrEqualTo(Clients.LEASE.dividedBy(3).plusMillis(500));
        assertThatExceptionOfType(LockLostException.class).isThrownBy(held::close);
        second.close();
        assertThat(holderClient.activeLeaseCount() + otherClient.activeLeaseCount()).isZero();
        assertThat(Quiesce.leftoverLockKeys(this.raw)).isEmpty();
    }
}
