package dev.distlock.reliability;

import java.time.Duration;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockOperationException;
import dev.distlock.core.RedisLockClient;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * F7 and S6: the connection is half-open when the acquire is sent (requests reach Redis, replies are lost), so the
 * grant happens but its reply never arrives.
 */
@DisplayName("F7 half-open connection on the acquire reply")
class HalfOpenAcquireTests extends SingleServerFaultTest {

    private static final Duration LEASE = Duration.ofSeconds(10);

    private static final Duration OPERATION_TIMEOUT = Duration.ofMillis(500);

    @Test
    void theUnknownGrantIsFreedLongBeforeItsLeaseEndsAndNeverReplayed() throws Exception {
        RedisLockClient client = this.clients.lockClient(proxy().uri(), Clients.fastOptions()
            .watchdogLease(LEASE).operationTimeout(OPERATION_TIMEOUT).build());
        client.getLock("f7-warm").acquire(Duration.ZERO).close();

        proxy().halfOpen();
        long start = System.nanoTime();
        assertThatExceptionOfType(LockOperationException.class)
            .isThrownBy(() -> client.getLock("f7").tryAcquire(Duration.ZERO));
        long failedAfter = System.nanoTime() - start;
        boolean granted = this.raw.exists("lock:{f7}") == 1 || proxy().droppedReplyBytes() > 0;
        long freedAt = awaitGone("lock:{f7}", Duration.ofSeconds(12));
        Measured.report("F7", "acquire with lost reply failed after " + Measured.millis(0, failedAfter)
                + " (operation timeout " + OPERATION_TIMEOUT.toMillis() + " ms); the orphan grant was freed "
                + Measured.millis(start, freedAt) + " after the acquire started (lease " + LEASE.toMillis() + " ms)");
        assertThat(granted).as("the acquire reached Redis").isTrue();
        assertThat(Duration.ofNanos(failedAfter)).isLessThan(OPERATION_TIMEOUT.plusMillis(500));
        assertThat(Duration.ofNanos(freedAt - start)).as("orphan grant freed well before the lease ends")
            .isLessThan(OPERATION_TIMEOUT.multipliedBy(4));

        // heal: the broken connection is reset, the client reconnects
        proxy().pass();
        proxy().resetAll();
        long healedAt = System.nanoTime();
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
            try (LockLease lease = client.getLock("f7-after").acquire(Duration.ZERO)) {
                return lease.isHeld();
            }
        });
        long recovered = System.nanoTime() - healedAt;
        // S6: nothing replays the abandoned acquire after the reconnect
        long replayedAt = 0;
        long watchUntil = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        while (System.nanoTime() - watchUntil < 0 && replayedAt == 0) {
            if (this.raw.exists("lock:{f7}") == 1) {
                replayedAt = System.nanoTime();
            }
            Thread.sleep(5);
        }
        Measured.report("F7", "after heal the client worked again within " + Measured.millis(0, recovered)
                + "; abandoned acquire replayed after reconnect: " + ((replayedAt == 0) ? "no"
                : "YES, key recreated " + Measured.millis(healedAt, replayedAt) + " after the heal, pttl "
                + this.raw.pttl("lock:{f7}") + " ms"));
        assertThat(replayedAt).as("the abandoned acquire was replayed after the reconnect (orphan lock)").isZero();
        await().atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
            assertThat(client.activeLeaseCount()).isZero();
            assertThat(Quiesce.leftoverLockKeys(this.raw)).isEmpty();
        });
    }

    private long awaitGone(String key, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (this.raw.exists(key) == 1) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(key + " still exists after " + timeout);
            }
            Thread.sleep(2);
        }
        return System.nanoTime();
    }
}
