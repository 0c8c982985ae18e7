package dev.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RedisServerTests {

    private final List<RedisServer> started = new ArrayList<>();

    @AfterEach
    void stopEverything() {
        started.forEach(RedisServer::stop);
        Processes.assertNoneLeft();
    }

    private RedisServer start(RedisServerOptions options) {
        RedisServer server = RedisServer.start(options);
        started.add(server);
        return server;
    }

    @Test
    void startsOnLoopbackAndAnswersPingSetGet() {
        RedisServer server = start(RedisServerOptions.defaults());

        assertThat(server.host()).isEqualTo("127.0.0.1");
        assertThat(server.uri()).isEqualTo("redis://127.0.0.1:" + server.port());
        assertThat(server.isRunning()).isTrue();
        assertThat(Processes.isAlive(server.pid())).isTrue();
        String value = LettuceCalls.call(RedisURI.create(server.uri()), redis -> {
            assertThat(redis.ping()).isEqualTo("PONG");
            redis.set("k", "v");
            return redis.get("k");
        });
        assertThat(value).isEqualTo("v");
        assertThat(server.directory().resolve("redis.log")).isRegularFile();
    }

    @Test
    void ownSessionServerRunsOutsideTheJvmsSessionSoATerminalInterruptMissesIt() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setsid")) && Files.isReadable(Path.of("/proc/self/stat")),
                "needs setsid and /proc (Linux)");
        RedisServer server = start(RedisServerOptions.defaults().withOwnSession());

        assertThat(session(server.pid())).isEqualTo(server.pid()).isNotEqualTo(session(ProcessHandle.current().pid()));
        String pong = LettuceCalls.call(RedisURI.create(server.uri()), redis -> redis.ping());
        assertThat(pong).isEqualTo("PONG");
        long pid = server.pid();
        server.stop();
        assertThat(Processes.isAlive(pid)).isFalse();
    }

    /** Field 6 of /proc/pid/stat, after the parenthesised command name. */
    private static long session(long pid) throws java.io.IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[3]);
    }

    @Test
    void stopEndsTheProcessDeletesItsDirectoryAndIsIdempotent() {
        RedisServer server = start(RedisServerOptions.defaults());
        long pid = server.pid();
        Path directory = server.directory();

        server.stop();

        assertThat(Processes.isAlive(pid)).isFalse();
        assertThat(server.isRunning()).isFalse();
        assertThat(directory).doesNotExist();
        assertThatThrownBy(server::pid).isInstanceOf(IllegalStateException.class);
        server.stop();
        server.close();
        assertThat(server.isRunning()).isFalse();
    }

    @Test
    void restartComesBackOnTheSamePortEmpty() {
        RedisServer server = start(RedisServerOptions.defaults());
        int port = server.port();
        long pid = server.pid();
        TestRedis.set(server, "k", "v");

        server.restart();

        assertThat(server.port()).isEqualTo(port);
        assertThat(server.pid()).isNotEqualTo(pid);
        assertThat(Processes.isAlive(pid)).isFalse();
        assertThat(TestRedis.get(server, "k")).isNull();
        assertThat(TestRedis.dbsize(server)).isZero();
    }

    @Test
    void restartWithPersistenceKeepsTheData() {
        RedisServer server = start(RedisServerOptions.defaults().withArgs("--appendonly", "yes"));
        TestRedis.set(server, "k", "kept");

        server.restart();

        assertThat(TestRedis.get(server, "k")).isEqualTo("kept");
    }

    @Test
    void pausedServerTimesOutAndAnswersAgainAfterResume() {
        RedisServer server = start(RedisServerOptions.defaults());
        RedisURI shortTimeout = RedisURI.builder().withHost(server.host()).withPort(server.port())
                .withTimeout(Duration.ofMillis(300)).build();

        LettuceCalls.call(shortTimeout, redis -> {
            assertThat(redis.ping()).isEqualTo("PONG");
            server.pause();
            assertThat(server.isPaused()).isTrue();
            assertThat(server.isRunning()).isTrue();
            assertThatThrownBy(redis::ping).isInstanceOf(RedisCommandTimeoutException.class);

            server.resume();
            assertThat(server.isPaused()).isFalse();
            assertThat(redis.ping()).isEqualTo("PONG");
            return null;
        });
    }

    @Test
    void stopWorksOnAPausedServer() {
        RedisServer server = start(RedisServerOptions.defaults().withStopTimeout(Duration.ofSeconds(2)));
        long pid = server.pid();
        server.pause();

        long startNanos = System.nanoTime();
        server.stop();

        assertThat(Processes.isAlive(pid)).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - startNanos)).isLessThan(Duration.ofSeconds(2));
    }

    @Test
    void kill9EndsTheProcessAndRestartBringsItBack() {
        RedisServer server = start(RedisServerOptions.defaults());
        long pid = server.pid();

        server.kill9();
        server.kill9();

        assertThat(Processes.isAlive(pid)).isFalse();
        assertThat(server.isRunning()).isFalse();
        assertThatThrownBy(server::pause).isInstanceOf(IllegalStateException.class);
        server.restart();
        assertThat(TestRedis.ping(server)).isEqualTo("PONG");
    }

    @Test
    void restartAfterStopStartsAgainOnTheSamePort() {
        RedisServer server = start(RedisServerOptions.defaults());
        int port = server.port();
        server.stop();

        server.restart();

        assertThat(server.port()).isEqualTo(port);
        assertThat(server.directory()).isDirectory();
        assertThat(TestRedis.ping(server)).isEqualTo("PONG");
    }

    @Test
    void retriesOnAnotherPortWhenThePortIsTaken() {
        RedisServer occupant = start(RedisServerOptions.defaults());
        AtomicInteger calls = new AtomicInteger();

        RedisServer server = RedisServer.start(RedisServerOptions.defaults(),
                () -> calls.getAndIncrement() == 0 ? occupant.port() : PortAllocator.next());
        started.add(server);

        assertThat(calls).hasValue(2);
        assertThat(server.port()).isNotEqualTo(occupant.port());
        assertThat(TestRedis.ping(server)).isEqualTo("PONG");
        assertThat(TestRedis.ping(occupant)).isEqualTo("PONG");
    }

    @Test
    void failedStartExplainsItselfAndLeavesNothingRunning() {
        RedisServerOptions bad = RedisServerOptions.defaults().withArgs("--no-such-directive", "1");

        assertThatThrownBy(() -> RedisServer.start(bad))
                .isInstanceOf(RedisServerException.class)
                .hasMessageContaining("exited with code")
                .hasMessageContaining("no-such-directive");
        Processes.assertNoneLeft();
    }

    @Test
    void passwordProtectedServerStarts() {
        RedisServer server = start(RedisServerOptions.defaults().withPassword("s3cret"));

        assertThat(server.options().password()).hasValue("s3cret");
        assertThat(TestRedis.ping(server)).isEqualTo("PONG");
        assertThatThrownBy(() -> LettuceCalls.call(RedisURI.create(server.uri()), redis -> redis.get("k")))
                .hasStackTraceContaining("NOAUTH");
    }

    @Test
    void startsInClusterMode() {
        RedisServer server = start(RedisServerOptions.defaults().withArgs("--cluster-enabled", "yes"));

        assertThat(TestRedis.info(server, "cluster")).contains("cluster_enabled:1");
        assertThat(server.directory().resolve("nodes.conf")).isRegularFile();
    }

    @Test
    void startsInSentinelMode() {
        RedisServer server = start(RedisServerOptions.defaults().withArgs("--sentinel"));

        // Valkey 9 renamed the field to server_mode
        assertThat(TestRedis.info(server, "server")).containsPattern("(redis|server)_mode:sentinel");
    }
}
