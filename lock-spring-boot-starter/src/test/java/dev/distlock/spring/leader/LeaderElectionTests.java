package dev.distlock.spring.leader;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.LockInfo;
import dev.distlock.core.RedisLockClient;
import dev.distlock.spring.leader.RecordingCandidate.Callback;
import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.AclSetuserArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Three candidates of one group, each with a lock client of its own, on one real redis-server: one leads, handover on
 * stop and yield takes far less than a lease, and a leader whose key is deleted behind its back is told.
 */
class LeaderElectionTests {

    /** A lease much longer than a handover may take, so "well under a lease" is measured, not assumed. */
    private static final Duration LONG_LEASE = Duration.ofSeconds(10);

    /** A short lease for the loss tests: renewed (and so checked) every 500 ms. */
    private static final Duration SHORT_LEASE = Duration.ofMillis(1500);

    /** Generous bound of a handover on a loaded 2-core machine; still a fifth of {@link #LONG_LEASE}. */
    private static final Duration HANDOVER_BOUND = Duration.ofSeconds(2);

    private static final String GROUP = "reports";

    private static final String KEY = "lock:{leader:" + GROUP + "}";

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    private final Deque<AutoCloseable> resources = new ArrayDeque<>();

    private final RecordingCandidate.Log log = new RecordingCandidate.Log();

    private RedisCommands<String, String> raw;

    @BeforeEach
    void connect() {
        redis.flushAll();
        RedisClient client = redisClient();
        StatefulRedisConnection<String, String> connection = client.connect();
        this.resources.push(connection);
        this.raw = connection.sync();
    }

    @AfterEach
    void closeEverything() throws Exception {
        while (!this.resources.isEmpty()) {
            this.resources.pop().close();
        }
    }

    @Test
    void exactlyOneOfThreeCandidatesLeads() throws Exception {
        List<LeaderElection> elections = startElections(3, LONG_LEASE);
        Callback granted = this.log.await("a grant", Duration.ofSeconds(10), Callback::granted);
        // two renewal rounds of a short lease would not change this; wait for the others to queue and settle
        Thread.sleep(1000);

        assertThat(elections.stream().filter(LeaderElection::isLeader).map(LeaderElection::group)).hasSize(1);
        assertThat(this.log.select(Callback::granted)).hasSize(1);
        assertThat(ownerInRedis()).isEqualTo(granted.candidate());
        assertThat(granted.epoch()).isPositive();
        assertThat(granted.context().group()).isEqualTo(GROUP);
        assertThat(granted.context().isLeader()).isTrue();
    }

    @Test
    void stoppingTheLeaderHandsLeadershipToAnotherCandidateWellUnderALease() throws Exception {
        List<LeaderElection> elections = startElections(3, LONG_LEASE);
        Callback first = this.log.await("a grant", Duration.ofSeconds(10), Callback::granted);
        awaitQueued(2);
        LeaderElection leader = election(elections, first.candidate());

        long stoppedAt = System.nanoTime();
        leader.stop();
        Callback next = this.log.await("the next grant", HANDOVER_BOUND.plusSeconds(5),
                (c) -> c.granted() && c.nanos() > stoppedAt);
        Callback revoked = this.log.await("the stopped leader's revocation", Duration.ofMillis(1),
                (c) -> !c.granted() && c.candidate().equals(first.candidate()));

        assertThat(Duration.ofNanos(next.nanos() - stoppedAt)).as("handover after stop").isLessThan(HANDOVER_BOUND);
        assertThat(revoked.nanos()).as("revoked before the successor was granted").isLessThan(next.nanos());
        assertThat(next.candidate()).isNotEqualTo(first.candidate());
        assertThat(next.epoch()).isGreaterThan(first.epoch());
        assertThat(leader.isRunning()).isFalse();
        assertThat(leader.isLeader()).isFalse();
        assertThat(ownerInRedis()).isEqualTo(next.candidate());
        assertThat(this.log.mostLeadingAtOnce).hasValue(1);
    }

    @Test
    void yieldingHandsLeadershipToAWaitingCandidateAndTheYielderCompetesAgain() throws Exception {
        List<LeaderElection> elections = startElections(3, LONG_LEASE);
        Callback first = this.log.await("a grant", Duration.ofSeconds(10), Callback::granted);
        awaitQueued(2);

        long yieldedAt = System.nanoTime();
        first.context().yield();
        Callback next = this.log.await("the next grant", HANDOVER_BOUND.plusSeconds(5),
                (c) -> c.granted() && c.nanos() > yieldedAt);

        assertThat(Duration.ofNanos(next.nanos() - yieldedAt)).as("handover after yield").isLessThan(HANDOVER_BOUND);
        assertThat(next.candidate()).isNotEqualTo(first.candidate());
        assertThat(first.context().isLeader()).isFalse();
        assertThat(election(elections, first.candidate()).isRunning()).isTrue();
        // the yielder waits in line again, behind the third candidate
        awaitQueued(2);
        assertThat(this.log.mostLeadingAtOnce).hasValue(1);
    }

    @Test
    void aLeaderWhoseKeyIsDeletedBehindItsBackIsRevokedWithinAThirdOfItsLease() throws Exception {
        startElections(3, SHORT_LEASE);
        Callback first = this.log.await("a grant", Duration.ofSeconds(10), Callback::granted);

        long deletedAt = System.nanoTime();
        assertThat(this.raw.del(KEY)).isEqualTo(1);
        Callback revoked = this.log.await("the revocation", SHORT_LEASE.plusSeconds(5),
                (c) -> !c.granted() && c.candidate().equals(first.candidate()));
        Callback next = this.log.await("a new grant", SHORT_LEASE.plusSeconds(5),
                (c) -> c.granted() && c.nanos() > deletedAt);

        // renewed every third of the lease: the refused renewal comes within that, plus a loaded machine's margin
        assertThat(Duration.ofNanos(revoked.nanos() - deletedAt)).isLessThan(SHORT_LEASE.dividedBy(3).plusMillis(700));
        assertThat(revoked.epoch()).isEqualTo(first.epoch());
        assertThat(revoked.context().isLeader()).isFalse();
        assertThat(next.epoch()).isGreaterThan(first.epoch());
        Thread.sleep(SHORT_LEASE.toMillis());
        assertThat(this.log.select((c) -> c.granted() && c.nanos() > deletedAt)).as("grants after the deletion")
            .hasSize(1);
    }

    @Test
    void aClientWithoutFencingIsRefusedWithTheSettingToChange() {
        RedisLockClient client = lockClient("c0", LockClientOptions.builder().fencing(false));
        assertThatIllegalArgumentException()
            .isThrownBy(() -> new LeaderElection(client, GROUP, new RecordingCandidate("c0", this.log)))
            .withMessageContaining("needs fencing tokens")
            .withMessageContaining("distributed-lock.fencing=true");
    }

    @Test
    void aBlankGroupIsRefused() {
        RedisLockClient client = lockClient("c0", LockClientOptions.builder());
        assertThatIllegalArgumentException()
            .isThrownBy(() -> new LeaderElection(client, " ", new RecordingCandidate("c0", this.log)))
            .withMessageContaining("group must not be blank");
    }

    @Test
    void anElectionThatCannotGetItsEpochReleasesTheLockAndTriesAgain() throws Exception {
        // A Redis user that may take the lock but not mint its token (no TIME): every epoch request fails.
        this.raw.aclSetuser("elector", AclSetuserArgs.Builder.on().addPassword("elector-pw").allKeys().allChannels()
            .allCommands().removeCommand(CommandType.TIME));
        RedisClient restricted = RedisClient.create(redis.uri().replace("redis://", "redis://elector:elector-pw@"));
        this.resources.push(() -> restricted.shutdown(Duration.ZERO, Duration.ofSeconds(2)));
        RedisLockClient client = RedisLockClient.create(restricted, LockClientOptions.builder().instanceId("c0")
            .watchdogLease(LONG_LEASE).operationTimeout(Duration.ofSeconds(1)).build());
        this.resources.push(client);
        LeaderElection election = new LeaderElection(client, GROUP, new RecordingCandidate("c0", this.log),
                Duration.ofMillis(200));
        this.resources.push(election::stop);
        election.start();
        Thread.sleep(1500);
        assertThat(this.log.select(Callback::granted)).as("no term without an epoch").isEmpty();

        this.raw.aclSetuser("elector", AclSetuserArgs.Builder.addCommand(CommandType.TIME));

        Callback granted = this.log.await("a grant once the epoch can be had", Duration.ofSeconds(10),
                Callback::granted);
        assertThat(granted.epoch()).isPositive();
        assertThat(election.isLeader()).isTrue();
    }

    private List<LeaderElection> startElections(int count, Duration lease) {
        List<LeaderElection> elections = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String name = "c" + i;
            RedisLockClient client = lockClient(name, LockClientOptions.builder().watchdogLease(lease)
                .operationTimeout(Duration.ofSeconds(1)).maxBackoff(Duration.ofMillis(500)));
            LeaderElection election = new LeaderElection(client, GROUP, new RecordingCandidate(name, this.log));
            elections.add(election);
            this.resources.push(election::stop);
            election.start();
        }
        return elections;
    }

    private RedisLockClient lockClient(String instanceId, LockClientOptions.Builder options) {
        RedisLockClient client = RedisLockClient.create(redisClient(), options.instanceId(instanceId).build());
        this.resources.push(client);
        return client;
    }

    private RedisClient redisClient() {
        RedisClient client = RedisClient.create(redis.uri());
        this.resources.push(() -> client.shutdown(Duration.ZERO, Duration.ofSeconds(2)));
        return client;
    }

    private static LeaderElection election(List<LeaderElection> elections, String candidate) {
        return elections.get(Integer.parseInt(candidate.substring(1)));
    }

    /** The instance id of the key's owner, as Redis has it; "" when the key is absent. */
    private String ownerInRedis() {
        String hold = this.raw.get(KEY);
        if (hold == null) {
            return "";
        }
        int bar = hold.lastIndexOf('|');
        return String.valueOf(LockInfo.instanceIdOf((bar < 0) ? hold : hold.substring(0, bar)));
    }

    /** Waits until {@code count} candidates wait in line in Redis, so a handover has someone to go to. */
    private void awaitQueued(int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() - deadline < 0) {
            LockInfo info = lockClientForInspection().inspect(LeaderElection.LOCK_PREFIX + GROUP);
            if (info.queuedWaiters() >= count) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError(count + " candidates did not queue within 10 s");
    }

    private RedisLockClient inspector;

    private RedisLockClient lockClientForInspection() {
        if (this.inspector == null) {
            this.inspector = lockClient("inspector", LockClientOptions.builder());
        }
        return this.inspector;
    }
}
