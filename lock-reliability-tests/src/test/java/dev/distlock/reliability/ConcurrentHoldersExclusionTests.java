package dev.distlock.reliability;

import java.time.Duration;
import java.util.List;

import dev.distlock.testsupport.FencedCounter;
import dev.distlock.testsupport.HistoryChecks;
import dev.distlock.testsupport.LockEvent;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** F1: no fault; several worker JVMs with several threads each contend for a few locks with short leases. */
@DisplayName("F1 concurrent holders in several JVMs")
class ConcurrentHoldersExclusionTests extends SingleServerFaultTest {

    private static final List<String> LOCKS = List.of("f1-a", "f1-b", "f1-c");

    @Test
    void sectionsNeverOverlapAndTheFencedCounterIsExact() {
        int jvms = Soak.count(4, 6);
        int threads = Soak.count(3, 4);
        int iterations = Soak.count(900, 5_000);
        long maxMillis = Soak.duration(Duration.ofSeconds(75), Duration.ofMinutes(10)).toMillis();
        List<Worker> started = this.workers.startAll(jvms, "f1-", redis.uri());

        long start = System.nanoTime();
        for (Worker worker : started) {
            worker.send("loop " + String.join(",", LOCKS) + " " + threads + " " + iterations + " " + maxMillis
                    + " 100 10000 locked");
        }
        long sections = 0;
        long failures = 0;
        for (Worker worker : started) {
            LockEvent done = worker.await("loop-done", Duration.ofMillis(maxMillis + 30_000),
                    e -> e.info().startsWith("loop-done"));
            sections += Long.parseLong(done.value("sections"));
            failures += Long.parseLong(done.value("failures"));
        }
        long elapsed = System.nanoTime() - start;

        List<String> overlaps = HistoryChecks.overlaps(this.workers.history);
        List<String> tokens = HistoryChecks.nonIncreasingTokens(this.workers.history);
        long accepted = 0;
        long rejected = 0;
        for (String lock : LOCKS) {
            FencedCounter.Result counter = FencedCounter.check(this.raw, lock);
            assertThat(counter.violations()).as("counter of %s", lock).isEmpty();
            accepted += counter.accepted();
            rejected += counter.rejected();
        }
        Measured.report("F1", jvms + " JVMs x " + threads + " threads on " + LOCKS.size() + " locks: " + sections
                + " sections in " + Measured.millis(0, elapsed) + " (" + (sections * 1_000_000_000L / elapsed)
                + "/s), acquire failures=" + failures + ", overlaps=" + overlaps.size() + ", counter accepted="
                + accepted + " rejected=" + rejected);

        assertThat(overlaps).as("overlapping sections").isEmpty();
        assertThat(tokens).as("fencing tokens per lock in grant order").isEmpty();
        assertThat(failures).as("acquire failures (10 s wait)").isZero();
        assertThat(sections).isEqualTo((long) jvms * threads * iterations).isGreaterThanOrEqualTo(10_000);
        assertThat(accepted).isEqualTo(sections);
        assertThat(rejected).isZero();
        assertThat(this.workers.stats(Duration.ofSeconds(10)))
            .allSatisfy(stats -> assertThat(stats.info()).contains("leases=0", "waiting=0"));
        assertThat(Quiesce.leftoverLockKeys(this.raw)).isEmpty();
    }
}
