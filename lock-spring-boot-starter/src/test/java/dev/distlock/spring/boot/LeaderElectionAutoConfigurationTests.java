package dev.distlock.spring.boot;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.distlock.spring.leader.LeaderCandidate;
import dev.distlock.spring.leader.LeaderElection;
import dev.distlock.spring.leader.LeaderElections;
import dev.distlock.spring.leader.LeadershipContext;
import dev.distlock.spring.leader.LeadershipEvent;
import dev.distlock.testsupport.RedisExtension;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.event.EventListener;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The leader election's auto-configuration: when it runs, what it refuses, and three applications on one
 * redis-server handing leadership on as they close.
 */
class LeaderElectionAutoConfigurationTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(BootLine.DATA_REDIS, DistributedLockAutoConfiguration.class,
                LeaderElectionAutoConfiguration.class))
        .withPropertyValues("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port());

    @BeforeEach
    void flush() {
        redis.flushAll();
    }

    @Test
    void noCandidateAndNoGroupMeansNoElection() {
        this.contextRunner.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(LeaderElections.class));
    }

    @Test
    void aCandidateBeanIsGrantedLeadershipOfItsGroupAndRevokedWhenTheContextCloses() {
        List<String> calls = new CopyOnWriteArrayList<>();
        this.contextRunner.withPropertyValues("distributed-lock.leader.group=billing")
            .withBean(LeaderCandidate.class, () -> new Recording(calls))
            .run((context) -> {
                LeaderElections elections = context.getBean(LeaderElections.class);
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> elections.isLeader("billing"));
                assertThat(elections.elections()).extracting(LeaderElection::lockName).containsExactly("leader:billing");
                assertThat(calls).singleElement().asString().startsWith("granted billing");
            });
        assertThat(calls).hasSize(2).last().asString().startsWith("revoked billing");
    }

    @Test
    void theGroupPropertyAloneRunsAnElectionThatPublishesEvents() {
        this.contextRunner.withPropertyValues("distributed-lock.leader.group=nightly")
            .withUserConfiguration(EventRecorder.class)
            .run((context) -> {
                EventRecorder recorder = context.getBean(EventRecorder.class);
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !recorder.events.isEmpty());
                LeadershipEvent granted = recorder.events.get(0);
                assertThat(granted.isGranted()).isTrue();
                assertThat(granted.context().group()).isEqualTo("nightly");
                assertThat(granted.context().epoch()).isPositive();
                assertThat(granted.getSource()).isInstanceOf(LeaderElection.class);
            });
    }

    @Test
    void aCandidateWithoutAGroupFailsTheStartupNamingTheProperty() {
        this.contextRunner.withBean(LeaderCandidate.class, () -> new Recording(new ArrayList<>()))
            .run((context) -> assertThat(context).hasFailed()
                .getFailure()
                .rootCause()
                .hasMessageContaining("names no group")
                .hasMessageContaining("distributed-lock.leader.group"));
    }

    @Test
    void threeApplicationsHandLeadershipOnAsTheLeaderCloses() {
        List<String> calls = new CopyOnWriteArrayList<>();
        List<ConfigurableApplicationContext> apps = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                apps.add(start("app-" + i, calls));
            }
            for (int round = 0; round < 2; round++) {
                ConfigurableApplicationContext leader = awaitTheLeader(apps);
                assertThat(apps.stream().filter(this::leads)).hasSize(1);
                long closedAt = System.nanoTime();
                leader.close();
                apps.remove(leader);
                ConfigurableApplicationContext next = awaitTheLeader(apps);
                // a tenth of the 30 s default lease: the lock was handed on, not left to expire
                assertThat(Duration.ofNanos(System.nanoTime() - closedAt)).isLessThan(Duration.ofSeconds(3));
                assertThat(apps.stream().filter(this::leads)).containsExactly(next);
            }
        }
        finally {
            apps.forEach(ConfigurableApplicationContext::close);
        }
        // granted and revoked alternate: never two leaders at once by their own callbacks
        for (int i = 0; i < calls.size(); i++) {
            assertThat(calls.get(i)).as("call %d of %s", i, calls).startsWith((i % 2 == 0) ? "granted" : "revoked");
        }
        assertThat(calls).hasSize(6);
    }

    private ConfigurableApplicationContext awaitTheLeader(List<ConfigurableApplicationContext> apps) {
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> apps.stream().anyMatch(this::leads));
        return apps.stream().filter(this::leads).findFirst().orElseThrow();
    }

    private boolean leads(ConfigurableApplicationContext app) {
        return app.getBean(LeaderElections.class).isLeader("cluster");
    }

    private static ConfigurableApplicationContext start(String instance, List<String> calls) {
        return new SpringApplicationBuilder(LeaderApplication.class).web(WebApplicationType.NONE)
            .properties("spring.main.banner-mode=off", "spring.data.redis.host=" + redis.host(),
                    "spring.data.redis.port=" + redis.port(), "distributed-lock.instance-id=" + instance)
            .initializers((context) -> context.getBeanFactory()
                .registerSingleton("candidate", new Recording(calls) {
                    @Override
                    public String group() {
                        return "cluster";
                    }
                }))
            .run();
    }

    @Configuration(proxyBeanMethods = false)
    @Import(BootLine.DataRedis.class)
    @ImportAutoConfiguration({ DistributedLockAutoConfiguration.class, LeaderElectionAutoConfiguration.class })
    static class LeaderApplication {

    }

    /** Records each callback as "granted|revoked group epoch". */
    static class Recording implements LeaderCandidate {

        private final List<String> calls;

        Recording(List<String> calls) {
            this.calls = calls;
        }

        @Override
        public void onGranted(LeadershipContext context) {
            this.calls.add("granted " + context.group() + " " + context.epoch());
        }

        @Override
        public void onRevoked(LeadershipContext context) {
            this.calls.add("revoked " + context.group() + " " + context.epoch());
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class EventRecorder {

        final List<LeadershipEvent> events = new CopyOnWriteArrayList<>();

        @EventListener
        void on(LeadershipEvent event) {
            this.events.add(event);
        }
    }
}
