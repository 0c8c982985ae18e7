package dev.distlock.spring.boot.actuate;

import java.time.Duration;
import java.time.Instant;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.RedisLockClient;
import dev.distlock.spring.boot.BootLine;
import dev.distlock.spring.boot.DistributedLockAutoConfiguration;
import dev.distlock.spring.boot.LeaderElectionAutoConfiguration;
import dev.distlock.spring.leader.LeaderCandidate;
import dev.distlock.spring.leader.LeaderElection;
import dev.distlock.spring.leader.LeaderElections;
import dev.distlock.spring.leader.LeadershipContext;
import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The {@code distributedlocks} endpoint's view of this instance's leader elections. */
class LeadershipEndpointTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(BootLine.DATA_REDIS, DistributedLockAutoConfiguration.class,
                LeaderElectionAutoConfiguration.class, EndpointAutoConfiguration.class,
                DistributedLockActuatorAutoConfiguration.class))
        .withPropertyValues("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
                "management.endpoints.web.exposure.include=distributedlocks");

    @BeforeEach
    void flush() {
        redis.flushAll();
    }

    @Test
    void showsTheGroupThisInstanceLeadsWithItsEpochAndSinceWhen() {
        Instant before = Instant.now();
        this.contextRunner.withBean(LeaderCandidate.class, () -> new Candidate("billing")).run((context) -> {
            LeaderElections elections = context.getBean(LeaderElections.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> elections.isLeader("billing"));
            LeadershipContext term = elections.election("billing").orElseThrow().context().orElseThrow();

            DistributedLocksEndpoint.LeasesDescriptor view = context.getBean(DistributedLocksEndpoint.class).leases();
            assertThat(view.leaders()).singleElement().satisfies((leader) -> {
                assertThat(leader.group()).isEqualTo("billing");
                assertThat(leader.lock()).isEqualTo("leader:billing");
                assertThat(leader.competing()).isTrue();
                assertThat(leader.leader()).isTrue();
                assertThat(leader.epoch()).isPositive().isEqualTo(term.epoch());
                assertThat(Instant.parse(leader.since())).isBetween(before, Instant.now());
                assertThat(leader.leaderFor()).doesNotStartWith("PT").endsWith("s");
            });
            assertThat(view.leases()).extracting(DistributedLocksEndpoint.LeaseDescriptor::name)
                .contains("leader:billing");
        });
    }

    @Test
    void showsACandidateWaitingWhileAnotherInstanceLeads() {
        RedisClient redisClient = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
        try (RedisLockClient otherInstance = RedisLockClient.create(redisClient, LockClientOptions.defaults())) {
            LeaderElection other = new LeaderElection(otherInstance, "billing", (term) -> {
            });
            other.start();
            try {
                await().atMost(Duration.ofSeconds(10)).until(other::isLeader);
                this.contextRunner.withBean(LeaderCandidate.class, () -> new Candidate("billing")).run((context) -> {
                    DistributedLocksEndpoint endpoint = context.getBean(DistributedLocksEndpoint.class);
                    assertThat(endpoint.leases().leaders()).singleElement().satisfies((leader) -> {
                        assertThat(leader.group()).isEqualTo("billing");
                        assertThat(leader.competing()).isTrue();
                        assertThat(leader.leader()).isFalse();
                        assertThat(leader.epoch()).isNull();
                        assertThat(leader.since()).isNull();
                        assertThat(leader.leaderFor()).isNull();
                    });
                });
            }
            finally {
                other.stop();
            }
        }
        finally {
            redisClient.shutdown();
        }
    }

    @Test
    void showsNoLeadersWithoutAnElection() {
        this.contextRunner.run((context) -> assertThat(context.getBean(DistributedLocksEndpoint.class).leases()
            .leaders()).isEmpty());
    }

    /** A candidate of one group that does nothing with its leadership. */
    private record Candidate(String group) implements LeaderCandidate {

        @Override
        public void onGranted(LeadershipContext context) {
        }
    }
}
