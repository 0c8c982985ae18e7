package dev.distlock.reliability;

import java.time.Duration;
import java.util.List;

import dev.distlock.core.LockInfo;
import dev.distlock.testsupport.LockEvent;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * F31: leader election with three candidates, each a Spring Boot application in its own JVM ({@link
 * LeaderCandidateMain}), on one redis-server. The leader is killed with SIGKILL, or frozen with SIGSTOP for longer
 * than its lease and resumed. Redis's view (the owner stored in the group's lock key, sampled every millisecond or
 * so) and the candidates' own reports must agree that one candidate leads at a time.
 */
@DisplayName("F31 leader election: leader killed or frozen")
class LeaderElectionFaultTests extends SingleServerFaultTest {

    private static final String GROUP = "f31";

    private static final String KEY = "lock:{leader:" + GROUP + "}";

    /** Margin for a loaded 2-core machine on top of "within one lease". */
    private static final Duration MARGIN = Duration.ofMillis(700);

    @Test
    void aKilledLeaderIsSucceededWithinOneLeaseAndRedisNeverSeesTwoLeaders() throws Exception {
        List<Worker> candidates = startCandidates();
        LockEvent first = awaitGrant(0, Duration.ofSeconds(20));
        try (HoldSampler sampler = HoldSampler.start(this.raw, List.of(KEY), List.of())) {
            Worker leader = candidate(candidates, first.process());
            // renewed at least once, so the key lives about a full lease after the kill
            Thread.sleep(Clients.LEASE.toMillis() / 2 + 200);
            long killedAt = System.nanoTime();
            leader.kill9();
            LockEvent next = awaitGrant(killedAt, Clients.LEASE.plus(MARGIN).plusSeconds(5));
            Thread.sleep(Clients.LEASE.toMillis());
            sampler.close();

            long takeover = next.nanos() - killedAt;
            Measured.report("F31", "leader SIGKILLed: new leader after " + Measured.millis(0, takeover) + " (lease "
                    + Clients.LEASE.toMillis() + " ms)");
            assertThat(Duration.ofNanos(takeover)).as("a new leader within one lease")
                .isLessThanOrEqualTo(Clients.LEASE.plus(MARGIN));
            assertThat(next.process()).isNotEqualTo(first.process());
            assertThat(next.token()).as("epoch").isGreaterThan(first.token());
            assertThat(grantsAfter(first.nanos())).as("grants after the first").containsExactly(next);
            assertThat(leaders(sampler)).as("owners of the key, as Redis stored them")
                .containsExactly(first.process(), next.process());
        }
    }

    @Test
    void aFrozenLeaderIsSucceededAndIsToldItLostLeadershipWhenItResumes() throws Exception {
        List<Worker> candidates = startCandidates();
        LockEvent first = awaitGrant(0, Duration.ofSeconds(20));
        try (HoldSampler sampler = HoldSampler.start(this.raw, List.of(KEY), List.of())) {
            Worker leader = candidate(candidates, first.process());
            Thread.sleep(Clients.LEASE.toMillis() / 2 + 200);
            long pausedAt = System.nanoTime();
            leader.pause();
            LockEvent next = awaitGrant(pausedAt, Clients.LEASE.plus(MARGIN).plusSeconds(5));
            // frozen for twice the lease in all
            Thread.sleep(Math.max(0, Clients.LEASE.toMillis() * 2 - (System.nanoTime() - pausedAt) / 1_000_000));
            long resumedAt = System.nanoTime();
            leader.resume();
            LockEvent revoked = leader.await(LockEvent.Type.LOST, GROUP, 0, Duration.ofSeconds(10));
            Thread.sleep(Clients.LEASE.toMillis());
            sampler.close();

            Measured.report("F31", "leader SIGSTOPped for " + Clients.LEASE.multipliedBy(2).toMillis()
                    + " ms: new leader after " + Measured.millis(pausedAt, next.nanos()) + ", frozen one told "
                    + Measured.millis(resumedAt, revoked.nanos()) + " after SIGCONT (epochs " + first.token() + " -> "
                    + next.token() + ")");
            assertThat(Duration.ofNanos(next.nanos() - pausedAt)).as("a new leader within one lease")
                .isLessThanOrEqualTo(Clients.LEASE.plus(MARGIN));
            assertThat(revoked.token()).as("the frozen leader's revoked epoch").isEqualTo(first.token());
            assertThat(next.token()).as("the successor's epoch").isGreaterThan(first.token());
            assertThat(revoked.nanos()).as("told after it resumed").isGreaterThan(resumedAt);
            // the frozen leader's work checks isLeader(): nothing of it runs once the successor leads
            assertThat(this.workers.history.select((e) -> e.process().equals(first.process())
                    && e.info().equals("work") && e.nanos() > next.nanos())).as("work of the former leader").isEmpty();
            assertThat(grantsAfter(first.nanos())).as("grants after the first").containsExactly(next);
            assertThat(leaders(sampler)).as("owners of the key, as Redis stored them")
                .containsExactly(first.process(), next.process());
            // the resumed candidate waits in line again
            long asked = System.nanoTime();
            leader.send("status");
            assertThat(leader.await("status", Duration.ofSeconds(10), (e) -> e.nanos() > asked
                    && e.info().startsWith("status")).info()).isEqualTo("status leader=false");
        }
    }

    private List<Worker> startCandidates() {
        return this.workers.startAll(LeaderCandidateMain.class, 3, "f31-candidate-", redis.uri(), "group=" + GROUP,
                "leaseMs=" + Clients.LEASE.toMillis());
    }

    private LockEvent awaitGrant(long afterNanos, Duration timeout) {
        return this.workers.history.await("a grant of " + GROUP, timeout, (e) -> e.type() == LockEvent.Type.OK
                && e.nanos() > afterNanos);
    }

    private List<LockEvent> grantsAfter(long nanos) {
        return this.workers.history.select((e) -> e.type() == LockEvent.Type.OK && e.nanos() > nanos);
    }

    private static Worker candidate(List<Worker> candidates, String name) {
        return candidates.stream().filter((w) -> w.name().equals(name)).findFirst().orElseThrow();
    }

    /** The instance ids that held the key, in order, absences left out. */
    private static List<String> leaders(HoldSampler sampler) {
        return sampler.owners(KEY).stream().filter((owner) -> !owner.isEmpty()).map(LockInfo::instanceIdOf)
            .toList();
    }
}
