package dev.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

class RedisExtensionTests {

    /** Pids seen by the sample tests while they ran. */
    static final Set<Long> PIDS = ConcurrentHashMap.newKeySet();
    /** Ports seen by the sample tests while they ran. */
    static final Set<Integer> PORTS = ConcurrentHashMap.newKeySet();
    static volatile String externalUri = "";

    @BeforeEach
    void clear() {
        PIDS.clear();
        PORTS.clear();
    }

    @AfterEach
    void nothingLeft() {
        Processes.assertNoneLeft();
    }

    private static Events run(Class<?> sample) {
        return EngineTestKit.engine("junit-jupiter")
                .configurationParameter(OnlyInTestKit.PARAMETER, "true")
                .selectors(selectClass(sample))
                .execute()
                .testEvents()
                .debug();
    }

    @Test
    void singleServerRunsForTheClassAndIsStoppedAfterIt() {
        run(SingleSample.class).assertStatistics(stats -> stats.started(2).succeeded(2));

        assertThat(PIDS).as("both tests saw the same server").hasSize(1);
        Processes.assertDead(PIDS);
    }

    @Test
    void serversAreStoppedAlsoWhenTestsFail() {
        run(FailingSample.class).assertStatistics(stats -> stats.started(1).failed(1));

        Processes.assertDead(PIDS);
    }

    @Test
    void independentServersHaveDistinctPorts() {
        run(IndependentSample.class).assertStatistics(stats -> stats.started(1).succeeded(1));

        assertThat(PORTS).hasSize(3);
        assertThat(PIDS).hasSize(3);
        Processes.assertDead(PIDS);
    }

    @Test
    void replicaSetIsInSyncBeforeTheFirstTest() {
        run(ReplicaSample.class).assertStatistics(stats -> stats.started(1).succeeded(1));

        assertThat(PIDS).hasSize(3);
        Processes.assertDead(PIDS);
    }

    @Test
    void nestedClassesShareTheOuterServers() {
        run(NestingSample.class).assertStatistics(stats -> stats.started(2).succeeded(2));

        assertThat(PIDS).hasSize(1);
        Processes.assertDead(PIDS);
    }

    @Test
    void instanceFieldGivesEachTestItsOwnServer() {
        run(PerTestSample.class).assertStatistics(stats -> stats.started(2).succeeded(2));

        assertThat(PIDS).hasSize(2);
        Processes.assertDead(PIDS);
    }

    @Test
    void externalRedisIsUsedButCannotBeControlled() {
        try (RedisServer external = RedisServer.start()) {
            externalUri = external.uri();
            LettuceCalls.call(RedisURI.create(external.uri()), redis -> redis.set("left-over", "x"));

            run(ExternalSample.class).assertStatistics(stats -> stats.started(3).succeeded(2).aborted(1));

            assertThat(external.isRunning()).as("an external Redis is not stopped").isTrue();
            assertThat(TestRedis.dbsize(external)).isZero();
        }
    }

    @Test
    void accessorsExplainWhenNotStarted() {
        RedisExtension redis = RedisExtension.single(RedisServerOptions.defaults(), name -> null);

        assertThatThrownBy(redis::uri).isInstanceOf(IllegalStateException.class).hasMessageContaining("static field");
        assertThatThrownBy(redis::server).isInstanceOf(IllegalStateException.class);
        assertThat(redis.isExternal()).isFalse();
    }

    // ---- samples, run only through EngineTestKit ----

    @ExtendWith(OnlyInTestKit.class)
    static class SingleSample {

        @RegisterExtension
        static final RedisExtension redis = RedisExtension.single(RedisServerOptions.defaults(), name -> null);

        @BeforeEach
        void flush() {
            redis.flushAll();
        }

        @Test
        void first() {
            PIDS.add(redis.server().pid());
            assertThat(TestRedis.ping(redis.uri())).isEqualTo("PONG");
            LettuceCalls.call(RedisURI.create(redis.uri()), c -> c.set("k", "v"));
        }

        @Test
        void second() {
            PIDS.add(redis.server().pid());
            assertThat(redis.host()).isEqualTo("127.0.0.1");
            assertThat(redis.port()).isEqualTo(redis.server().port());
            assertThat(TestRedis.get(redis.server(), "k")).as("flushed").isNull();
            assertThatThrownBy(redis::replicaSet).isInstanceOf(IllegalStateException.class);
        }
    }

    @ExtendWith(OnlyInTestKit.class)
    static class FailingSample {

        @RegisterExtension
        static final RedisExtension redis = RedisExtension.single(RedisServerOptions.defaults(), name -> null);

        @Test
        void fails() {
            PIDS.add(redis.server().pid());
            throw new AssertionError("on purpose");
        }
    }

    @ExtendWith(OnlyInTestKit.class)
    static class IndependentSample {

        @RegisterExtension
        static final RedisExtension redis = RedisExtension.independent(3);

        @Test
        void threeServers() {
            assertThat(redis.servers()).hasSize(3);
            assertThat(redis.uris()).hasSize(3);
            for (RedisServer server : redis.servers()) {
                PIDS.add(server.pid());
                PORTS.add(server.port());
                assertThat(TestRedis.ping(server.uri())).isEqualTo("PONG");
            }
            redis.flushAll();
        }
    }

    @ExtendWith(OnlyInTestKit.class)
    static class ReplicaSample {

        @RegisterExtension
        static final RedisExtension redis = RedisExtension.withReplicas(2);

        @Test
        void replicated() {
            RedisReplicaSet set = redis.replicaSet();
            assertThat(redis.server()).isSameAs(set.master());
            assertThat(redis.server(1)).isSameAs(set.replica(0));
            redis.servers().forEach(server -> PIDS.add(server.pid()));
            LettuceCalls.call(RedisURI.create(redis.uri()), c -> c.set("k", "v"));
            redis.flushAll();
            assertThat(TestRedis.dbsize(set.replica(1))).isZero();
        }
    }

    @ExtendWith(OnlyInTestKit.class)
    static class NestingSample {

        @RegisterExtension
        static final RedisExtension redis = RedisExtension.single(RedisServerOptions.defaults(), name -> null);

        @Test
        void outer() {
            PIDS.add(redis.server().pid());
        }

        @Nested
        class Inner {

            @Test
            void inner() {
                PIDS.add(redis.server().pid());
                assertThat(redis.server().isRunning()).isTrue();
            }
        }
    }

    @ExtendWith(OnlyInTestKit.class)
    static class PerTestSample {

        @RegisterExtension
        final RedisExtension redis = RedisExtension.single(RedisServerOptions.defaults(), name -> null);

        @Test
        void one() {
            PIDS.add(redis.server().pid());
        }

        @Test
        void two() {
            PIDS.add(redis.server().pid());
        }
    }

    @ExtendWith(OnlyInTestKit.class)
    static class ExternalSample {

        @RegisterExtension
        static final RedisExtension redis = RedisExtension.single(RedisServerOptions.defaults(),
                name -> name.equals(RedisExtension.EXTERNAL_URI_ENV) ? externalUri : null);

        @Test
        void usesTheExternalUri() {
            assertThat(redis.isExternal()).isTrue();
            assertThat(redis.uri()).isEqualTo(externalUri);
            assertThat(redis.uris()).isEqualTo(List.of(externalUri));
            assertThat(redis.port()).isEqualTo(RedisURI.create(externalUri).getPort());
            redis.flushAll();
        }

        @Test
        void cannotControlIt() {
            assertThatThrownBy(redis::server)
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining(RedisExtension.EXTERNAL_URI_ENV)
                    .hasMessageContaining("assumeControllable");
        }

        @Test
        void faultTestIsSkipped() {
            redis.assumeControllable();
            throw new AssertionError("must not get here");
        }
    }
}
