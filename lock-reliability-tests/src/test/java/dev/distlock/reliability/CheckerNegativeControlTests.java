package dev.distlock.reliability;

import java.time.Duration;
import java.util.List;

import dev.distlock.testsupport.FencedCounter;
import dev.distlock.testsupport.HistoryChecks;
import dev.distlock.testsupport.LockEvent;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checkers must be able to fail: runs that are wrong on purpose, through the same worker JVMs, events and
 * checkers as the fault tests, must be flagged by both the overlap checker and the fenced counter.
 */
class CheckerNegativeControlTests extends SingleServerFaultTest {

    @Test
    void readModifyWritesWithoutTheLockAreFlaggedByBothCheckers() {
        List<Worker> started = this.workers.startAll(2, "nolock-", redis.uri());
        for (Worker worker : started) {
            worker.send("loop unlocked 3 300 20000 300 0 nolock");
        }
        for (Worker worker : started) {
            worker.await("loop-done", Duration.ofSeconds(60), e -> e.info().startsWith("loop-done"));
        }

        List<String> overlaps = HistoryChecks.overlaps(this.workers.history);
        FencedCounter.Result counter = FencedCounter.check(this.raw, "unlocked");
        Measured.report("negative-control/no-lock", "overlaps flagged=" + overlaps.size() + ", counter="
                + counter.value() + " after " + counter.accepted() + " writes, violations="
                + counter.violations().size());
        assertThat(overlaps).as("overlap checker on unlocked sections").isNotEmpty();
        assertThat(counter.exact()).as("fenced counter on unlocked read-modify-writes").isFalse();
    }

    @Test
    void anUnfencedLockAgainstAPausedHolderIsFlaggedByBothCheckers() {
        Worker paused = this.workers.start("unfenced-a", redis.uri(), "fencing=false");
        Worker next = this.workers.start("unfenced-b", redis.uri(), "fencing=false");

        PausedHolderScenario.Outcome outcome = PausedHolderScenario.run(paused, next, "unfenced", false);

        List<String> overlaps = HistoryChecks.overlaps(this.workers.history);
        FencedCounter.Result counter = FencedCounter.check(this.raw, "unfenced");
        Measured.report("negative-control/unfenced-paused-holder", "stale write accepted="
                + (outcome.staleWrite().type() == LockEvent.Type.WRITE_OK) + ", overlaps flagged=" + overlaps.size()
                + ", counter violations=" + counter.violations().size());
        assertThat(outcome.staleWrite().type()).isEqualTo(LockEvent.Type.WRITE_OK);
        assertThat(overlaps).as("overlap checker on a naive paused holder").isNotEmpty();
        assertThat(counter.exact()).as("counter without fencing").isFalse();
    }
}
