package dev.distlock.reliability;

import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.RedisLockClient;
import dev.distlock.core.internal.redis.RedisGateway;
import dev.distlock.core.internal.redis.RedisGateways;
import dev.distlock.testsupport.RedisSentinelSet;
import dev.distlock.testsupport.RedisServer;
import dev.distlock.testsupport.RedisTopologyExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * F21 (S7): a master with two replicas and three Sentinels; a lock client connected through a Sentinel URI takes
 * uncontended locks under load while the master is failed over ({@code SENTINEL FAILOVER}) or SIGKILLed. Every grant
 * is attributed to the server that made it ({@link AuditedGrants}), and the Sentinels' {@code +switch-master}
 * announcement is observed by the test's own subscription ({@link SwitchAnnouncements}). Promise: no grant on the
 * demoted master later than 1 s after the announcement. After {@code SENTINEL FAILOVER} the demoted master stays a
 * writable master for several seconds until the Sentinels reconfigure it; after a SIGKILL it is restarted at once, as a
 * supervisor would, and comes back as an empty writable master until the Sentinels reconfigure it.
 */
@DisplayName("F21 Sentinel master switch: no grant on the demoted master")
class SentinelMasterSwitchTests {

    private static final Duration S7_BOUND = Duration.ofSeconds(1);

    private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(30);

    /** How long the load keeps running after the announcement: the demoted master stays writable about 8 s. */
    private static final Duration AFTER_SWITCH = Duration.ofSeconds(4);

    @RegisterExtension
    final RedisTopologyExtension<RedisSentinelSet> sentinel = RedisTopologyExtension.sentinel(2);

    @RegisterExtension
    final Clients clients = new Clients();

    @Test
    void afterSentinelFailoverNoGrantLandsOnTheDemotedMaster() throws Exception {
        RedisSentinelSet set = this.sentinel.get();
        try (SwitchAnnouncements announcements = SwitchAnnouncements.watch(this.clients.redisClient(
                set.dataServers().get(0).uri()), set)) {
            RedisLockClient client = this.clients.lockClient(set.sentinelUri(), Clients.fastOptions().build());
            RedisServer before = set.master();
            AuditedGrants load = new AuditedGrants(client, set.dataServers(), this.clients)
                .start(2, FAILOVER_TIMEOUT.plus(AFTER_SWITCH), 1_000_000);
            Thread.sleep(500);
            long requestedAt = System.nanoTime();
            set.failover(Duration.ofSeconds(20));
            long announcedAt = announcements.awaitFirst(FAILOVER_TIMEOUT);
            RedisServer after = set.awaitFailover(before, FAILOVER_TIMEOUT);
            sleepUntil(announcedAt + AFTER_SWITCH.toNanos());
            load.stop(Duration.ofSeconds(10));
            Verdict verdict = Verdict.of(load, announcedAt, before, after);
            Measured.report("F21", "SENTINEL FAILOVER: announced " + Measured.millis(requestedAt, announcedAt)
                    + " after the command (" + announcements.firstMessage() + "); " + verdict);
            verdict.assertS7();
        }
    }

    @Test
    void afterTheMasterIsKilledNoGrantLandsOnItsRestartedProcess() throws Exception {
        RedisSentinelSet set = this.sentinel.get();
        // Lettuce's own reconnect delay (growing to 30 s), as most applications run it: following the switch must
        // not depend on when Lettuce happens to reconnect
        RedisURI uri = RedisURI.create(set.sentinelUri());
        uri.setTimeout(Duration.ofSeconds(2));
        RedisClient defaultClient = RedisClient.create(uri);
        try (SwitchAnnouncements announcements = SwitchAnnouncements.watch(defaultClient, set);
                RedisLockClient client = RedisLockClient.create(defaultClient, Clients.fastOptions().build())) {
            AuditedGrants load = new AuditedGrants(client, set.dataServers(), this.clients)
                .start(2, FAILOVER_TIMEOUT.plus(AFTER_SWITCH), 1_000_000);
            Thread.sleep(500);
            RedisServer killed = set.killMaster();
            long killedAt = System.nanoTime();
            long announcedAt = announcements.awaitFirst(FAILOVER_TIMEOUT);
            killed.restart();
            long restartedAt = System.nanoTime();
            RedisServer after = set.awaitFailover(killed, FAILOVER_TIMEOUT);
            sleepUntil(announcedAt + AFTER_SWITCH.toNanos());
            load.stop(Duration.ofSeconds(10));
            Verdict verdict = Verdict.of(load, announcedAt, killed, after);
            Measured.report("F21", "kill -9 of the master (Lettuce default reconnect delay): announced "
                    + Measured.millis(killedAt, announcedAt) + " after the kill (" + announcements.firstMessage()
                    + "), old master restarted " + Measured.millis(announcedAt, restartedAt) + " after the "
                    + "announcement; " + verdict);
            verdict.assertS7();
        }
        finally {
            defaultClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    @Test
    void subscriptionsActiveAtTheSwitchAreReestablishedOnTheNewMaster() throws Exception {
        RedisSentinelSet set = this.sentinel.get();
        RedisClient redis = this.clients.redisClient(set.sentinelUri());
        Queue<String> received = new ConcurrentLinkedQueue<>();
        try (SwitchAnnouncements announcements = SwitchAnnouncements.watch(redis, set);
                RedisGateway gateway = RedisGateways.open(redis, false, Duration.ofSeconds(3))) {
            gateway.onMessage((channel, message) -> received.add(channel + "=" + message));
            gateway.subscribe("f21-wake").get(5, TimeUnit.SECONDS);
            RedisServer before = set.master();
            this.clients.raw(before.uri()).publish("f21-wake", "before");
            awaitReceived(received, "f21-wake=before", Duration.ofSeconds(5));

            set.failover(Duration.ofSeconds(20));
            long announcedAt = announcements.awaitFirst(FAILOVER_TIMEOUT);
            RedisServer after = set.awaitFailover(before, FAILOVER_TIMEOUT);
            RedisCommands<String, String> newMaster = this.clients.raw(after.uri());
            // publish on the new master every 50 ms; the first message the gateway hears says when it followed
            long firstHeardSentAt = -1;
            for (int i = 0; i < 200 && firstHeardSentAt < 0; i++) {
                long sentAt = System.nanoTime();
                newMaster.publish("f21-wake", Long.toString(sentAt));
                Thread.sleep(50);
                for (String message : received) {
                    if (message.startsWith("f21-wake=") && !message.equals("f21-wake=before")) {
                        firstHeardSentAt = Long.parseLong(message.substring("f21-wake=".length()));
                    }
                }
            }
            Measured.report("F21", "pub/sub: the first message published on the new master that the gateway heard "
                    + "was sent " + (firstHeardSentAt < 0 ? "never (10 s)" : Measured.millis(announcedAt,
                    firstHeardSentAt)) + " after the announcement");
            assertThat(firstHeardSentAt).as("a message published on the new master was heard").isPositive();
            assertThat(TimeUnit.NANOSECONDS.toMillis(firstHeardSentAt - announcedAt))
                .as("messages published on the new master are heard within %s of the announcement (ms)", S7_BOUND)
                .isLessThan(S7_BOUND.toMillis());
        }
    }

    /** Grants after the announcement, by the server that made them. */
    private record Verdict(long onOldBefore, long onOldAfter, long onOldLate, double lastOnOld, long onNewAfter,
            double firstOnNewAfter, long unattributed, long total, long failures) {

        static Verdict of(AuditedGrants load, long announcedAt, RedisServer old, RedisServer promoted) {
            List<AuditedGrants.Grant> grants = load.grants();
            long lateFrom = announcedAt + S7_BOUND.toNanos();
            long onOldBefore = 0;
            long onOldAfter = 0;
            long onOldLate = 0;
            long lastOnOld = Long.MIN_VALUE;
            long onNewAfter = 0;
            long firstOnNew = Long.MAX_VALUE;
            long unattributed = 0;
            for (AuditedGrants.Grant grant : grants) {
                // a grant held by both was replicated: from the old master before the switch, or to the demoted
                // one after it; either way not a grant the demoted master made on its own
                if (grant.grantedAt() < announcedAt) {
                    onOldBefore += grant.holders().contains(old.port()) ? 1 : 0;
                    continue;
                }
                boolean onNew = grant.holders().contains(promoted.port());
                boolean onOld = !onNew && grant.holders().contains(old.port());
                if (onOld) {
                    onOldAfter++;
                    lastOnOld = Math.max(lastOnOld, grant.grantedAt());
                    if (grant.grantedAt() > lateFrom) {
                        onOldLate++;
                    }
                }
                else if (onNew) {
                    onNewAfter++;
                    firstOnNew = Math.min(firstOnNew, grant.grantedAt());
                }
                else {
                    unattributed++;
                }
            }
            return new Verdict(onOldBefore, onOldAfter, onOldLate,
                    (lastOnOld == Long.MIN_VALUE) ? Double.NaN : (lastOnOld - announcedAt) / 1e6, onNewAfter,
                    (firstOnNew == Long.MAX_VALUE) ? Double.NaN : (firstOnNew - announcedAt) / 1e6, unattributed,
                    grants.size(), load.failures());
        }

        void assertS7() {
            assertThat(onOldLate).as("S7: grants on the demoted master later than %s after +switch-master "
                    + "(last one %.1f ms after it)", S7_BOUND, lastOnOld).isZero();
            assertThat(onOldBefore).as("the audit attributes grants made before the switch to the old master")
                .isPositive();
            assertThat(onNewAfter).as("grants on the new master after the switch").isPositive();
        }

        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "grants on the demoted master after the announcement: %d "
                    + "(%d later than 1 s; last %.1f ms after it); first grant on the new master %.1f ms after it; "
                    + "%d grants on the new master after it, %d unattributed; %d grants in all (%d on the old master "
                    + "before), %d failed attempts", onOldAfter, onOldLate, lastOnOld, firstOnNewAfter, onNewAfter,
                    unattributed, total, onOldBefore, failures);
        }
    }

    private static void awaitReceived(Queue<String> received, String expected, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!received.contains(expected) && System.nanoTime() - deadline < 0) {
            Thread.sleep(10);
        }
        assertThat(received).contains(expected);
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long remaining = nanoTime - System.nanoTime();
        if (remaining > 0) {
            TimeUnit.NANOSECONDS.sleep(remaining);
        }
    }
}
