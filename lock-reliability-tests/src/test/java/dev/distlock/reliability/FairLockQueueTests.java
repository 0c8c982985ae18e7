package dev.distlock.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.distlock.core.LockLease;
import dev.distlock.core.RedisLockClient;
import dev.distlock.testsupport.LockEvent;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** F11: fair lock with waiters in five JVMs, two of them killed with kill -9 while queued. */
@DisplayName("F11 fair lock, waiters killed mid-queue")
class FairLockQueueTests extends SingleServerFaultTest {

    private static final Duration BACKOFF = Duration.ofMillis(300);

    @Test
    void liveWaitersAcquireInArrivalOrderAndDeadOnesAreSkipped() throws Exception {
        RedisLockClient holderClient = this.clients.lockClient(redis.uri(),
                Clients.fastOptions().maxBackoff(BACKOFF).build());
        LockLease held = holderClient.getFairLock("f11").acquire(Duration.ZERO);
        List<Worker> queue = this.workers.startAll(5, "f11-w", redis.uri(), "backoffMs=" + BACKOFF.toMillis());
        for (Worker waiter : queue) {
            long sent = System.nanoTime();
            waiter.send("acquire f11 30000 0 fair");
            waiter.await(LockEvent.Type.INVOKE, "f11", sent, Duration.ofSeconds(10));
            Thread.sleep(150); // its first attempt has queued it before the next one arrives
        }
        queue.get(1).kill9();
        queue.get(3).kill9();
        long killedAt = System.nanoTime();

        List<String> order = new ArrayList<>();
        List<String> delays = new ArrayList<>();
        long releasedAt = System.nanoTime();
        held.close();
        long worstSkip = 0;
        for (int turn = 0; turn < 3; turn++) {
            long since = releasedAt;
            LockEvent granted = this.workers.history.await("grant " + (turn + 1), Duration.ofSeconds(10),
                (e) -> e.type() == LockEvent.Type.OK && e.lock().equals("f11") && e.nanos() > since);
            order.add(granted.process());
            long delay = granted.nanos() - releasedAt;
            delays.add(Measured.millis(0, delay));
            if (turn > 0) {
                worstSkip = Math.max(worstSkip, delay);
            }
            Worker winner = queue.stream().filter((w) -> w.name().equals(granted.process())).findFirst().orElseThrow();
            Thread.sleep(50);
            releasedAt = System.nanoTime();
            winner.send("release f11");
            winner.await(LockEvent.Type.RELEASED, "f11", releasedAt, Duration.ofSeconds(5));
        }
        Measured.report("F11", "grant order " + order + " (w1, w3 killed "
                + Measured.millis(killedAt, System.nanoTime()) + " before the end); hand-over delays after each "
                + "release " + delays + " (back-off " + BACKOFF.toMillis() + " ms)");
        assertThat(order).containsExactly("f11-w0", "f11-w2", "f11-w4");
        // The queued design skips a dead waiter inside the release (its client hears nothing), so the live one behind
        // it is handed the lock at once. The old design let a dead fair waiter block the queue until its timeout of
        // 3 back-offs (bound 4 back-offs + 300 ms = 1.5 s); the bound now is what a hand-over takes on a loaded
        // machine, well under the 2 back-offs before which w2 (second in the queue) would check by itself.
        assertThat(Duration.ofNanos(worstSkip)).as("hand-over past a dead waiter")
            .isLessThanOrEqualTo(BACKOFF.multipliedBy(2));
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
            assertThat(Quiesce.leftoverLockKeys(this.raw)).isEmpty());
    }
}
