package dev.distlock.reliability;

import java.time.Duration;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockOperationException;
import dev.distlock.core.RedisLockClient;
import dev.distlock.testsupport.FaultProxy;
import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * F7 and S6: the connection is half-open when the acquire is sent (requests reach Redis, replies are lost), so the
 * grant happens but its reply never arrives.
 */
@DisplayName("F7 half-open connection on the acquire reply")
class HalfOpenAcquireTests {

    private static final Duration LEASE = Duration.ofSeconds(10);

    private static final Duration OPERATION_TIMEOUT = Duration.ofMillis(500);

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    private Clients clients;

    private RedisCommands<String, String> raw;

    private FaultProxy proxy;

    @BeforeEach
    void setUp() {
        redis.flushAll();
        this.clients = new Clients();
        this.raw = this.clients.raw(redis.uri());
        this.proxy = FaultProxy.start(redis.server());
    }

    @AfterEach
    void tearDown() throws Exception {
        this.clients.close();
        this.proxy.close();
    }

    @Test
    void theUnknownGrantIsFreedLongBeforeItsLeaseEndsAndNeverReplayed() throws Exception {
        RedisLockClient client = this.clients.lockClient(this.proxy.uri(), Clients.fastOptions()
            .watchdogLease(LEASE).operationTimeout(OPERATION_TIMEOUT).build());
        client.getLock("f7-warm").acquire(Duration.ZERO).close();

        this.proxy.halfOpen();
        long start = System.nanoTime();
        assertThatExceptionOfType(LockOperationException.class)
            .isThrownBy(() -> client.getLock("f7").tryAcquire(Duration.ZERO));
        long failedAfter = System.nanoTime() - start;
        boolean granted = this.raw.exists("lock:{f7}") == 1 || this.proxy.droppedReplyBytes() > 0;
        long freedAt = awaitGone("lock:{f7}", Duration.ofSeconds(12));
        Measured.report("F7", "acquire with lost reply failed after " + Measured.millis(0, failedAfter)
                + " (operation timeout " + OPERATION_TIMEOUT.toMillis() + " ms); the orphan grant was freed "
                + Measured.millis(start, freedAt) + " after the acquire started (lease " + LEASE.toMillis() + " ms)");
        assertThat(granted).as("the acquire reached Redis").isTrue();
        assertThat(Duration.ofNanos(failedAfter)).isLessThan(OPERATION_TIMEOUT.plusMillis(500));
        assertThat(Duration.ofNanos(freedAt - start)).as("orphan grant freed well before the lease ends")
            .isLessThan(OPERATION_TIMEOUT.multipliedBy(4));

        // heal: the broken connection is reset, the client reconnects
        this.proxy.pass();
        this.proxy.resetAll();
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
