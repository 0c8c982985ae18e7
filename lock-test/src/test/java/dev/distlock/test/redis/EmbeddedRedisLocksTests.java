package dev.distlock.test.redis;

import java.time.Duration;

import dev.distlock.core.LockClient;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockTemplate;
import dev.distlock.core.RedisLockClient;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.EventConditions;
import org.junit.platform.testkit.engine.TestExecutionResultConditions;

import org.springframework.test.context.junit.jupiter.SpringJUnitConfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/** {@code @EmbeddedRedisLocks}: a real server and lock client for a plain JUnit class, stopped after it. */
@SuppressWarnings("try") // leases held open only to keep a lock busy
@EmbeddedRedisLocks
class EmbeddedRedisLocksTests {

    @Test
    void injectsAClientAndATemplateOnTheServer(EmbeddedRedis redis, RedisLockClient client, LockTemplate template,
            LockClient asInterface) throws Exception {
        assertThat(client.redisTarget()).isEqualTo("127.0.0.1:" + redis.port());
        assertThat(template.client()).isSameAs(client).isSameAs(asInterface);
        try (LockLease lease = client.getLock("plain").acquire(Duration.ZERO)) {
            assertThat(client.inspect("plain").held()).isTrue();
        }
        Long token = template.execute("plain", (lease) -> lease.fencingToken());
        assertThat(token).isPositive();
    }

    @Nested
    class Inner {

        @Test
        void sharesTheEnclosingServerAndClient(EmbeddedRedis redis, RedisLockClient client) {
            assertThat(client.redisTarget()).isEqualTo("127.0.0.1:" + redis.port());
        }
    }

    @Test
    void stopsTheServerAfterTheClassClosingTheClientFirst() {
        EngineTestKit.engine("junit-jupiter")
            .selectors(selectClass(Recorded.class))
            .execute()
            .testEvents()
            .assertStatistics((stats) -> stats.succeeded(1).failed(0));
        assertThat(Recorded.client.activeLeaseCount()).isZero();
        assertThat(Recorded.redis.isRunning()).isFalse();
    }

    @Test
    void refusesSpringTestsNamingTheAnnotationToUse() {
        EngineTestKit.engine("junit-jupiter")
            .selectors(selectClass(SpringTest.class))
            .execute()
            .containerEvents()
            .assertThatEvents()
            .haveExactly(1, EventConditions.finishedWithFailure(TestExecutionResultConditions
                .message((message) -> message.contains("@AutoConfigureEmbeddedRedis"))));
    }

    @EmbeddedRedisLocks
    static class Recorded {

        static EmbeddedRedis redis;

        static RedisLockClient client;

        @Test
        void holdsALock(EmbeddedRedis redis, RedisLockClient client) throws Exception {
            Recorded.redis = redis;
            Recorded.client = client;
            client.getLock("left-held").acquire(Duration.ZERO);
        }
    }

    @EmbeddedRedisLocks
    @SpringJUnitConfig
    static class SpringTest {

        @Test
        void neverRuns() {
        }
    }
}
