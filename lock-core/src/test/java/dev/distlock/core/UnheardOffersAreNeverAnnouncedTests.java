package dev.distlock.core;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.distlock.testsupport.RedisReplicaSet;
import dev.distlock.testsupport.RedisTopologyExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A release skips a queued waiter whose client does not listen on the master without telling it anything. A publish
 * is replicated, and its receiver count is the master's alone: a client still subscribed on a replica (as on a master
 * demoted by a failover, until the client follows the new one) hears an announcement the master counts no receiver
 * for. Were the skipped waiter told, it would run on an offer the release withdrew, beside the next holder (found by
 * F19 in CI; docs/reliability.md, finding 15).
 */
@Timeout(120)
class UnheardOffersAreNeverAnnouncedTests {

    private static final String GHOST_CHANNEL = "lock:{elsewhere}:h:ghost";

    @RegisterExtension
    static final RedisTopologyExtension<RedisReplicaSet> servers = RedisTopologyExtension.of("a master and a replica",
            () -> RedisReplicaSet.start(1));

    private LockClients clients;

    private RedisCommands<String, String> master;

    private RedisClient replicaClient;

    private StatefulRedisPubSubConnection<String, String> onReplica;

    private final BlockingQueue<String> heardOnReplica = new LinkedBlockingQueue<>();

    @BeforeEach
    void listenOnTheReplica() {
        this.clients = new LockClients(servers.get().master().uri());
        this.master = this.clients.raw();
        this.master.flushall();
        this.replicaClient = RedisClient.create(RedisURI.create(servers.get().replica(0).uri()));
        this.onReplica = this.replicaClient.connectPubSub();
        this.onReplica.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
                UnheardOffersAreNeverAnnouncedTests.this.heardOnReplica.add(message);
            }
        });
        this.onReplica.sync().subscribe(GHOST_CHANNEL);
    }

    @AfterEach
    void close() {
        this.onReplica.close();
        this.replicaClient.shutdown();
        this.clients.close();
    }

    @Test
    void aWaiterWhoseClientListensOnlyOnAReplicaIsSkippedUntold() throws Exception {
        RedisLockClient holder = this.clients.create();
        RedisLockClient waiter = this.clients.create();
        LockLease held = holder.getLock("elsewhere").acquire(Duration.ZERO, Duration.ofSeconds(60));
        long heldToken = held.fencingToken();
        // First in line: a waiter whose client listens on the replica only.
        this.master.rpush("lock:{elsewhere}:queue", "ghost:1|30000|" + GHOST_CHANNEL);
        CompletableFuture<LockLease> live = waiter.getLock("elsewhere")
            .acquireAsync(Duration.ofSeconds(20), Duration.ofSeconds(60))
            .toCompletableFuture();
        await().atMost(Duration.ofSeconds(10)).until(() -> this.master.llen("lock:{elsewhere}:queue") == 2);

        held.close();

        try (LockLease lease = live.get(10, TimeUnit.SECONDS)) {
            assertThat(lease.fencingToken()).as("the live waiter behind it holds the lock").isGreaterThan(heldToken);
            assertThat(this.master.get("lock:{elsewhere}")).as("the lock key").doesNotStartWith("ghost:");
        }
        // The replica applies the master's writes and publishes in order: the marker comes after anything the release
        // published on the ghost's channel.
        this.master.publish(GHOST_CHANNEL, "marker");
        assertThat(this.heardOnReplica.poll(10, TimeUnit.SECONDS))
            .as("the first message on the skipped waiter's channel, as its client heard it on the replica")
            .isEqualTo("marker");
    }
}
