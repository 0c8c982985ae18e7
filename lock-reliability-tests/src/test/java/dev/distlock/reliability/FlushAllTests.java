package dev.distlock.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.LeaseLoss;
import dev.distlock.core.LockLease;
import dev.distlock.core.RedisLockClient;
import dev.distlock.testsupport.History;
import dev.distlock.testsupport.HistoryChecks;
import dev.distlock.testsupport.LockEvent;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** F16 and S5: FLUSHALL in the middle of a run. */
@DisplayName("F16 FLUSHALL mid-run")
class FlushAllTests extends SingleServerFaultTest {

    @Test
    void holdersAreLostAtTheNextRenewalAndLaterTokensAreLargerThanAllEarlierOnes() throws Exception {
        History history = new History();
        RedisLockClient client = this.clients.lockClient(redis.uri());
        List<String> locks = List.of("f16-a", "f16-b");
        LoadLoop load = new LoadLoop("f16-load", client::getLock, locks, null, history)
            .start(4, Integer.MAX_VALUE, Duration.ofSeconds(5), 500);
        List<LockLease> holders = new ArrayList<>();
        List<CompletableFuture<LeaseLoss>> losses = new ArrayList<>();
        List<CompletableFuture<Long>> lostAt = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            LockLease lease = client.getLock("f16-held-" + i).acquire(Duration.ZERO);
            CompletableFuture<LeaseLoss> loss = new CompletableFuture<>();
            CompletableFuture<Long> at = new CompletableFuture<>();
            lease.addLossListener((l) -> {
                at.complete(System.nanoTime());
                loss.complete(l);
            });
            holders.add(lease);
            losses.add(loss);
            lostAt.add(at);
        }
        Thread.sleep(1_500);
        long flushedAt = System.nanoTime();
        this.raw.flushall();
        long[] detection = new long[holders.size()];
        for (int i = 0; i < holders.size(); i++) {
            detection[i] = lostAt.get(i).get(5, TimeUnit.SECONDS) - flushedAt;
        }
        Thread.sleep(1_500);
        load.stop(Duration.ofSeconds(10));

        List<LockEvent> grants = history.ofType(LockEvent.Type.OK);
        long before = grants.stream().filter((e) -> e.nanos() < flushedAt).count();
        long after = grants.stream().filter((e) -> e.nanos() > flushedAt).count();
        Measured.report("F16", "holders told LOST " + java.util.Arrays.stream(detection)
            .mapToObj((d) -> Measured.millis(0, d)).toList() + " after FLUSHALL (renewal every "
            + Clients.LEASE.dividedBy(3).toMillis() + " ms); grants before/after: " + before + "/" + after
            + "; token order violations: " + HistoryChecks.nonIncreasingTokens(history).size());

        for (int i = 0; i < holders.size(); i++) {
            assertThat(losses.get(i).join().reason()).isEqualTo(LeaseLoss.Reason.RENEWAL_REFUSED);
            assertThat(Duration.ofNanos(detection[i])).isLessThanOrEqualTo(Clients.LEASE.dividedBy(3).plusMillis(300));
            assertThat(holders.get(i).isHeld()).isFalse();
        }
        assertThat(before).isPositive();
        assertThat(after).isPositive();
        // S5: every grant after the flush has a larger token than every grant before it, per lock
        assertThat(HistoryChecks.nonIncreasingTokens(history)).isEmpty();
        for (String lock : locks) {
            long maxBefore = grants.stream().filter((e) -> e.lock().equals(lock) && e.nanos() < flushedAt)
                .mapToLong(LockEvent::token).max().orElse(0);
            long minAfter = grants.stream().filter((e) -> e.lock().equals(lock) && e.nanos() > flushedAt)
                .mapToLong(LockEvent::token).min().orElse(Long.MAX_VALUE);
            assertThat(minAfter).as("first token of %s after FLUSHALL", lock).isGreaterThan(maxBefore);
        }
        for (LockLease holder : holders) {
            try {
                holder.close();
            }
            catch (RuntimeException expected) {
                // lost
            }
        }
        await().atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
            assertThat(client.activeLeaseCount()).isZero();
            assertThat(Quiesce.leftoverLockKeys(this.raw)).isEmpty();
        });
    }
}
