package dev.distlock.spring.integration;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.RedisLockClient;
import dev.distlock.spring.boot.BootLine;
import dev.distlock.spring.boot.DistributedLockAutoConfiguration;
import dev.distlock.spring.boot.DistributedLockIntegrationAutoConfiguration;
import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.RedisClient;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.integration.leader.Candidate;
import org.springframework.integration.leader.Context;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;
import org.springframework.integration.support.locks.DefaultLockRegistry;
import org.springframework.integration.support.locks.LockRegistry;

import static org.assertj.core.api.Assertions.assertThat;

/** Spring Integration's own leader initiator, unchanged, electing one of two instances on distlock's locks. */
class DistlockLockRegistryTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    private final Deque<AutoCloseable> resources = new ArrayDeque<>();

    private final List<String> calls = new CopyOnWriteArrayList<>();

    @BeforeEach
    void flush() {
        redis.flushAll();
    }

    @AfterEach
    void closeEverything() throws Exception {
        while (!this.resources.isEmpty()) {
            this.resources.pop().close();
        }
    }

    @Test
    void lockRegistryLeaderInitiatorElectsOneInstanceAndHandsOverWhenItStops() {
        LockRegistryLeaderInitiator first = initiator("i0");
        LockRegistryLeaderInitiator second = initiator("i1");
        Awaitility.await().atMost(Duration.ofSeconds(10))
            .until(() -> first.getContext().isLeader() || second.getContext().isLeader());
        LockRegistryLeaderInitiator leader = first.getContext().isLeader() ? first : second;
        LockRegistryLeaderInitiator other = (leader == first) ? second : first;
        // a few of the leader's heartbeats (reentrant tryLock and unlock every 500 ms) change nothing
        Awaitility.await().pollDelay(Duration.ofMillis(1200)).until(() -> true);
        assertThat(other.getContext().isLeader()).isFalse();
        assertThat(this.calls).hasSize(1);

        leader.stop();
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> other.getContext().isLeader());
        assertThat(leader.getContext().isLeader()).isFalse();
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> this.calls.size() == 3);
        // Spring Integration 6.5 (Boot 3.5) may publish the old leader's revocation after the new grant; 7.x before.
        String leaderId = (leader == first) ? "i0" : "i1";
        String otherId = (leader == first) ? "i1" : "i0";
        assertThat(this.calls.subList(1, 3)).containsExactlyInAnyOrder("revoked " + leaderId, "granted " + otherId);
    }

    @Test
    void theStarterDeclaresTheRegistryUnlessTheApplicationHasOne() {
        ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BootLine.DATA_REDIS, DistributedLockAutoConfiguration.class,
                    DistributedLockIntegrationAutoConfiguration.class))
            .withPropertyValues("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port());
        runner.run((context) -> assertThat(context).hasSingleBean(DistlockLockRegistry.class));
        runner.withBean(LockRegistry.class, DefaultLockRegistry::new)
            .run((context) -> assertThat(context).hasSingleBean(LockRegistry.class)
                .doesNotHaveBean(DistlockLockRegistry.class));
    }

    private LockRegistryLeaderInitiator initiator(String instance) {
        RedisClient redisClient = RedisClient.create(redis.uri());
        this.resources.push(() -> redisClient.shutdown(Duration.ZERO, Duration.ofSeconds(2)));
        RedisLockClient client = RedisLockClient.create(redisClient,
                LockClientOptions.builder().instanceId(instance).watchdogLease(Duration.ofSeconds(3)).build());
        this.resources.push(client);
        LockRegistryLeaderInitiator initiator = new LockRegistryLeaderInitiator(new DistlockLockRegistry(client),
                new Recording(instance));
        this.resources.push(initiator::destroy);
        initiator.start();
        return initiator;
    }

    private final class Recording implements Candidate {

        private final String id;

        Recording(String id) {
            this.id = id;
        }

        @Override
        public String getRole() {
            return "orders";
        }

        @Override
        public String getId() {
            return this.id;
        }

        @Override
        public void onGranted(Context context) {
            DistlockLockRegistryTests.this.calls.add("granted " + this.id);
        }

        @Override
        public void onRevoked(Context context) {
            DistlockLockRegistryTests.this.calls.add("revoked " + this.id);
        }
    }
}
