package dev.distlock.reliability;

import java.time.Duration;

import dev.distlock.testsupport.FencedCounter;
import dev.distlock.testsupport.HistoryChecks;
import dev.distlock.testsupport.LockEvent;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * F3 and S3/S5: the holder JVM is frozen with SIGSTOP for twice its lease, another JVM takes the lock, then the first
 * is continued and tries its write. Its negative control (fencing off) is in {@link CheckerNegativeControlTests}.
 */
@DisplayName("F3 holder JVM paused with SIGSTOP for 2x lease")
class PausedHolderFencingTests extends SingleServerFaultTest {

    private static final String LOCK = "f3";

    @Test
    void newHolderHasALargerTokenAndThePausedHoldersFencedWriteIsRejected() {
        Worker paused = this.workers.start("f3-a", redis.uri());
        Worker next = this.workers.start("f3-b", redis.uri());

        PausedHolderScenario.Outcome outcome = PausedHolderScenario.run(paused, next, LOCK, true);

        LockEvent lost = paused.await(LockEvent.Type.LOST, LOCK, outcome.resumedAt(), Duration.ofSeconds(5));
        long takeover = outcome.secondGrant().nanos() - outcome.pausedAt();
        Measured.report("F3", "LOST reported " + Measured.millis(outcome.resumedAt(), lost.nanos())
                + " after SIGCONT (" + Measured.millis(outcome.pausedAt(), lost.nanos()) + " after SIGSTOP, paused "
                + Measured.millis(outcome.pausedAt(), outcome.resumedAt()) + "); new holder acquired "
                + Measured.millis(0, takeover) + " after SIGSTOP; stale write " + outcome.staleWrite().type()
                + "; reason " + lost.value("reason"));

        assertThat(outcome.secondGrant().token()).isGreaterThan(outcome.firstGrant().token());
        assertThat(outcome.staleWrite().type()).isEqualTo(LockEvent.Type.WRITE_REJECTED);
        assertThat(outcome.staleWrite().has("heldNow=false")).as("isHeld() false at once after SIGCONT").isTrue();
        assertThat(lost.value("reason")).isIn("EXPIRED", "RENEWAL_REFUSED");
        assertThat(Duration.ofNanos(lost.nanos() - outcome.resumedAt())).isLessThan(Duration.ofSeconds(1));
        assertThat(HistoryChecks.overlaps(this.workers.history)).isEmpty();
        FencedCounter.Result counter = FencedCounter.check(this.raw, LOCK);
        assertThat(counter.violations()).isEmpty();
        assertThat(counter.value()).isEqualTo(1);
        assertThat(counter.rejected()).isEqualTo(1);

        long sent = System.nanoTime();
        paused.send("release " + LOCK);
        LockEvent release = paused.await(LockEvent.Type.RELEASE_FAIL, LOCK, sent, Duration.ofSeconds(5));
        assertThat(release.value("reason")).isEqualTo("LockLostException");
        assertThat(this.workers.stats(Duration.ofSeconds(5)))
            .allSatisfy((stats) -> assertThat(stats.info()).contains("leases=0", "waiting=0"));
        assertThat(Quiesce.leftoverLockKeys(this.raw)).isEmpty();
    }
}
