package dev.distlock.benchmarks.contention;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The contention metrics computed from hand-made grant histories (no Redis, no timing). */
class ContentionAnalysisTests {

    private static final long MS = 1_000_000L;

    private static final long S = 1_000 * MS;

    @Test
    void evenRoundRobinIsPerfectlyFairWithNoRewinsNoOvertakesAndNoStarvation() {
        // 2 clients alternate every 10 ms for 2 s; each starts waiting right after its own release
        List<List<Attempt>> history = history(2);
        long time = 0;
        long previousRelease = -5 * MS;
        for (int i = 0; i < 200; i++) {
            int client = i % 2;
            long granted = time + MS;
            // each release call takes 0.2 ms
            history.get(client).add(new Attempt(client, previousRelease, granted, granted + 9 * MS - MS / 5,
                    granted + 9 * MS, true));
            previousRelease = granted + 9 * MS;
            time += 10 * MS;
        }
        sortByStart(history);
        ContentionResult result = new ContentionAnalysis(history, 0, 2 * S).result("lock", 1, 400, 0.002, 4_000_000,
                0);

        assertThat(result.grantsPerSecond()).isCloseTo(100, within(0.01));
        assertThat(result.commandsPerGrant()).isCloseTo(2, within(0.01));
        // 2 ms of Redis CPU and 4 ms of client CPU over the 200 grants of the window
        assertThat(result.redisCpuPerGrant()).isCloseTo(10, within(0.01));
        assertThat(result.clientCpuPerGrant()).isCloseTo(20, within(0.01));
        assertThat(result.jain()).isCloseTo(1, within(1e-9));
        assertThat(result.rewonShare()).isZero();
        assertThat(result.overtakeShare()).isZero();
        assertThat(result.handoffP50()).isCloseTo(1000, within(0.01));
        assertThat(result.releaseP50()).isCloseTo(200, within(0.01));
        assertThat(result.releaseToNextP50()).isCloseTo(1200, within(0.01));
        assertThat(result.starvedClients()).isZero();
        assertThat(result.longestGapMillis()).isCloseTo(20, within(0.01));
    }

    @Test
    void aReleaserThatRewinsAheadOfAnOlderWaiterIsCountedAsRewinAndOvertakeAndStarvesIt() {
        // client 0 takes 100 grants in a row over 2 s while client 1 waits from the start to the end
        List<List<Attempt>> history = history(2);
        for (int i = 0; i < 100; i++) {
            long granted = i * 20 * MS + MS;
            history.get(0).add(new Attempt(0, granted - MS / 2, granted, granted + 10 * MS, granted + 10 * MS,
                    true));
        }
        history.get(1).add(new Attempt(1, 0, 3 * S, 3 * S, 3 * S, true));
        ContentionResult result = new ContentionAnalysis(history, 0, 2 * S).result("lock", 10, 100, 0, 0, 0);

        assertThat(result.jain()).isCloseTo(0.5, within(1e-9));
        assertThat(result.rewonShare()).isEqualTo(1.0);
        // the first grant started within 1 ms of client 1's acquire: not counted as an overtake
        assertThat(result.overtakeShare()).isCloseTo(0.99, within(1e-9));
        assertThat(result.handoffP50()).isNaN();
        assertThat(result.starvedClients()).isEqualTo(1);
        assertThat(result.longestGapMillis()).isCloseTo(2000, within(0.01));
    }

    @Test
    void grantsOutsideTheWindowDoNotCount() {
        List<List<Attempt>> history = history(1);
        history.get(0).add(new Attempt(0, 0, 5 * MS, 6 * MS, 6 * MS, true));
        history.get(0).add(new Attempt(0, 6 * MS, 2 * S, 2 * S, 2 * S, true));
        history.get(0).add(new Attempt(0, 2 * S, 3 * S, 3 * S, 3 * S, false));
        ContentionResult result = new ContentionAnalysis(history, 10 * MS, S).result("lock", 0, 7, 0, 0, 0);

        assertThat(result.grantsPerSecond()).isZero();
        assertThat(result.commandsPerGrant()).isNaN();
    }

    @Test
    void aWaitStillUnfinishedAtTheEndOfTheWindowCountsInAcquireLatency() {
        List<List<Attempt>> history = history(2);
        history.get(0).add(new Attempt(0, 0, MS, 2 * MS, 2 * MS, true));
        history.get(1).add(new Attempt(1, 0, 9 * S, 9 * S, 9 * S, true));
        ContentionResult result = new ContentionAnalysis(history, 0, 2 * S).result("lock", 1, 2, 0, 0, 0);

        assertThat(result.acquireP50()).isCloseTo(1_000, within(0.01));
        assertThat(result.acquireP99()).isCloseTo(2_000_000, within(0.01));
    }

    @Test
    void jainIsOneOverNWhenOneClientGetsEverything() {
        assertThat(ContentionAnalysis.jain(new long[] { 40, 0, 0, 0 })).isCloseTo(0.25, within(1e-9));
        assertThat(ContentionAnalysis.jain(new long[] { 5, 5, 5, 5 })).isCloseTo(1, within(1e-9));
    }

    private static List<List<Attempt>> history(int clients) {
        List<List<Attempt>> history = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            history.add(new ArrayList<>());
        }
        return history;
    }

    private static void sortByStart(List<List<Attempt>> history) {
        history.forEach(attempts -> attempts.sort(java.util.Comparator.comparingLong(Attempt::started)));
    }
}
