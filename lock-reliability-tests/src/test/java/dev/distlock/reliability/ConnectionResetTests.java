package dev.distlock.reliability;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import dev.distlock.core.LeaseLoss;
import dev.distlock.core.LockLease;
import dev.distlock.core.RedisLockClient;
import dev.distlock.testsupport.FencedCounter;
import dev.distlock.testsupport.History;
import dev.distlock.testsupport.HistoryChecks;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** F8: the proxy resets every client connection every 200 ms while several clients contend for two locks. */
@DisplayName("F8 connection resets every 200 ms under load")
class ConnectionResetTests extends SingleServerFaultTest {

    private static final List<String> LOCKS = List.of("f8-a", "f8-b");

    @Test
    void noOverlapWaitersKeepProgressingAndTheWatchdogRecovers() throws Exception {
        Duration run = Soak.duration(Duration.ofSeconds(8), Duration.ofMinutes(3));
        History history = new History();
        RedisLockClient first = this.clients.lockClient(proxy().uri());
        RedisLockClient second = this.clients.lockClient(proxy().uri());
        RedisLockClient watched = this.clients.lockClient(proxy().uri());
        LockLease longHold = watched.getLock("f8-watchdog").acquire(Duration.ZERO);
        CompletableFuture<LeaseLoss> longHoldLost = new CompletableFuture<>();
        longHold.addLossListener(longHoldLost::complete);

        LoadLoop a = new LoadLoop("f8-first", first::getLock, LOCKS, this.raw, history)
            .start(3, Integer.MAX_VALUE, Duration.ofSeconds(10), 200);
        LoadLoop b = new LoadLoop("f8-second", second::getLock, LOCKS, this.raw, history)
            .start(3, Integer.MAX_VALUE, Duration.ofSeconds(10), 200);
        long resets = 0;
        AtomicLong sectionsBeforeLastWindow = new AtomicLong();
        long end = System.nanoTime() + run.toNanos();
        long lastWindowStart = end - Duration.ofSeconds(2).toNanos();
        while (System.nanoTime() - end < 0) {
            Thread.sleep(200);
            resets += proxy().resetAll();
            if (sectionsBeforeLastWindow.get() == 0 && System.nanoTime() - lastWindowStart > 0) {
                sectionsBeforeLastWindow.set(a.sections() + b.sections());
            }
        }
        long sectionsInLastWindow = a.sections() + b.sections() - sectionsBeforeLastWindow.get();
        boolean heldThroughout = longHold.isHeld() && !longHoldLost.isDone();
        a.stop(Duration.ofSeconds(15));
        b.stop(Duration.ofSeconds(15));

        List<String> overlaps = HistoryChecks.overlaps(history);
        Measured.report("F8", (a.sections() + b.sections()) + " sections in " + run.toSeconds() + " s with " + resets
                + " connection resets; sections in the last 2 s: " + sectionsInLastWindow + "; longest stretch without "
                + "a section: " + a.longestGap().plus(Duration.ZERO).toMillis() + "/" + b.longestGap().toMillis()
                + " ms; watchdog lease held throughout: " + heldThroughout + "; errors: " + a.errors() + " "
                + b.errors());

        assertThat(overlaps).as("overlapping sections").isEmpty();
        for (String lock : LOCKS) {
            assertThat(FencedCounter.check(this.raw, lock).violations()).as("counter of %s", lock).isEmpty();
        }
        assertThat(resets).isGreaterThanOrEqualTo(run.toMillis() / 200);
        assertThat(sectionsInLastWindow).as("waiters keep progressing").isPositive();
        assertThat(a.sectionsByThread().values()).allSatisfy((n) -> assertThat(n.get()).isPositive());
        assertThat(b.sectionsByThread().values()).allSatisfy((n) -> assertThat(n.get()).isPositive());
        assertThat(heldThroughout).as("watchdog lease survives resets (lost: %s)", longHoldLost.getNow(null))
            .isTrue();
        longHold.close();
        await().atMost(Clients.LEASE.plusSeconds(3)).untilAsserted(() -> {
            assertThat(first.activeLeaseCount() + second.activeLeaseCount() + watched.activeLeaseCount()).isZero();
            assertThat(Quiesce.leftoverLockKeys(this.raw)).isEmpty();
        });
    }
}
