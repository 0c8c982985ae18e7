package dev.distlock.reliability;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.LockLease;
import dev.distlock.core.RedisLockClient;
import dev.distlock.testsupport.FaultProxy;
import dev.distlock.testsupport.RedisSentinelSet;
import dev.distlock.testsupport.RedisServer;
import dev.distlock.testsupport.RedisTopologyExtension;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * F28: a master, one replica and three Sentinels; the lock client reaches the replica only through a
 * {@link FaultProxy} (its address resolver sends the replica's port to the proxy), the other servers directly. The
 * proxy is blackholed, the master is failed over to the replica, and the client stays cut off from the new master
 * for {@link #OUTAGE}, well past the point where the follower used to give up, then the proxy lets it through.
 * Promise: the client recovers by itself (an acquire succeeds on the new master, no restart), reports itself
 * connected to the new master again, and no grant lands on the demoted master after the announcement.
 *
 * <p>The follower used to give up after 60 s; the test shortens that point to {@link #OLD_GIVE_UP} with the
 * follower's test-only system property (now only when it warns), so the outage fits a short test.
 */
@DisplayName("F28 Sentinel switch to a master the client cannot reach for a while")
class UnreachableNewMasterTests {

    private static final String PATIENCE_PROPERTY = "distlock.sentinel.patience-millis";

    private static final Duration OLD_GIVE_UP = Duration.ofSeconds(2);

    /** Several old give-up periods, each move attempt taking the 2 s connect timeout against the blackhole. */
    private static final Duration OUTAGE = Duration.ofSeconds(12);

    private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(30);

    /** Back-off cap + one move attempt (2 s connect timeout) + a loaded machine's slack. */
    private static final Duration RECOVERY_BOUND = Duration.ofSeconds(10);

    @RegisterExtension
    final RedisTopologyExtension<RedisSentinelSet> sentinel = RedisTopologyExtension.sentinel(1);

    @RegisterExtension
    final Clients clients = new Clients();

    @Test
    void aClientCutOffFromTheNewMasterPastTheOldGiveUpRecoversByItself() throws Exception {
        RedisSentinelSet set = this.sentinel.get();
        RedisServer before = set.master();
        RedisServer replica = set.replicas().get(0);
        try (FaultProxy proxy = FaultProxy.start(replica);
                SwitchAnnouncements announcements = SwitchAnnouncements.watch(this.clients.redisClient(before.uri()),
                        set);
                RedisLockClient client = lockClientWithShortPatience(
                        this.clients.redisClientRerouting(set.sentinelUri(), replica.port(), proxy.port()))) {
            assertThat(acquire(client, "f28-probe")).as("an acquire on the first master").isTrue();
            assertThat(client.redisTarget()).isEqualTo(before.host() + ":" + before.port());

            proxy.blackhole();
            AuditedGrants load = new AuditedGrants(client, set.dataServers(), this.clients)
                .start(1, FAILOVER_TIMEOUT.plus(OUTAGE).plus(RECOVERY_BOUND), 1_000_000);
            set.failover(Duration.ofSeconds(20));
            long announcedAt = announcements.awaitFirst(FAILOVER_TIMEOUT);
            RedisServer after = set.awaitFailover(before, FAILOVER_TIMEOUT);
            assertThat(after).as("the replica behind the proxy was promoted").isSameAs(replica);
            sleepUntil(announcedAt + OUTAGE.toNanos());
            boolean connectedDuringOutage = client.isConnected();
            long acceptedDuringOutage = proxy.acceptedConnections();

            proxy.pass();
            long healedAt = System.nanoTime();
            long recoveredAt = awaitAcquire(client, "f28-probe", RECOVERY_BOUND);
            Thread.sleep(500);
            load.stop(Duration.ofSeconds(10));
            long onOldAfter = grantsOnlyOn(load.grants(), before, announcedAt);
            long onNewAfter = load.grants().stream()
                .filter((grant) -> grant.grantedAt() > announcedAt && grant.holders().contains(after.port()))
                .count();
            Measured.report("F28", "new master unreachable " + Measured.millis(announcedAt, healedAt)
                    + " after +switch-master (old give-up point shortened to " + OLD_GIVE_UP.toSeconds() + " s; "
                    + acceptedDuringOutage + " connections tried through the blackhole): "
                    + ((recoveredAt < 0) ? "not recovered within " + RECOVERY_BOUND : "first acquire "
                    + Measured.millis(healedAt, recoveredAt) + " after the new master became reachable")
                    + "; grants on the demoted master after the announcement: " + onOldAfter + ", on the new master: "
                    + onNewAfter + "; failed attempts " + load.failures());

            assertThat(connectedDuringOutage).as("connected while the new master was unreachable").isFalse();
            assertThat(recoveredAt).as("an acquire succeeded within %s of the new master becoming reachable",
                    RECOVERY_BOUND).isPositive();
            assertThat(client.isConnected()).as("connected again").isTrue();
            assertThat(client.redisTarget()).as("reports the new master")
                .isEqualTo(after.host() + ":" + after.port());
            assertThat(onOldAfter).as("grants on the demoted master after the announcement").isZero();
            assertThat(onNewAfter).as("grants on the new master after it became reachable").isPositive();
        }
    }

    /** A lock client whose Sentinel follower reads the shortened give-up point when it is created. */
    private static RedisLockClient lockClientWithShortPatience(RedisClient redis) {
        String previous = System.setProperty(PATIENCE_PROPERTY, Long.toString(OLD_GIVE_UP.toMillis()));
        try {
            return RedisLockClient.create(redis, Clients.fastOptions().build());
        }
        finally {
            if (previous == null) {
                System.clearProperty(PATIENCE_PROPERTY);
            }
            else {
                System.setProperty(PATIENCE_PROPERTY, previous);
            }
        }
    }

    /** Grants made after {@code since} that only {@code server} held. */
    private static long grantsOnlyOn(List<AuditedGrants.Grant> grants, RedisServer server, long since) {
        return grants.stream()
            .filter((grant) -> grant.grantedAt() > since && grant.holders().equals(Set.of(server.port())))
            .count();
    }

    private static boolean acquire(RedisLockClient client, String name) {
        try {
            Optional<LockLease> lease = client.getLock(name).tryAcquire(Duration.ZERO);
            lease.ifPresent(LockLease::close);
            return lease.isPresent();
        }
        catch (RuntimeException ex) {
            return false;
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Tries every 50 ms; when the first acquire succeeded, or -1 if none did within {@code bound}. */
    private static long awaitAcquire(RedisLockClient client, String name, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (acquire(client, name)) {
                return System.nanoTime();
            }
            Thread.sleep(50);
        }
        return -1;
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long remaining = nanoTime - System.nanoTime();
        if (remaining > 0) {
            TimeUnit.NANOSECONDS.sleep(remaining);
        }
    }
}
