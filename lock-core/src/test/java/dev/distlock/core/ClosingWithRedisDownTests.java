package dev.distlock.core;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import dev.distlock.testsupport.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Closing a client whose Redis is gone (killed, or frozen with its connections open) while it renews a held lock,
 * another caller waits for it and a third is in the middle of a round trip: {@code close()} returns within the
 * operation timeout and a margin, every caller and the holder's release get their answer as soon, and no thread of the
 * client is left running. An application
 * whose Redis stops before its context closes must not hang on the way out.
 */
class ClosingWithRedisDownTests {

    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(1);

    /** Generous for a loaded 2-core machine, yet far below a wait for Redis (the waiter asks for minutes). */
    private static final Duration BOUND = OPERATION_TIMEOUT.plusSeconds(5);

    enum RedisDown {
        KILLED, FROZEN
    }

    private RedisServer server;

    private ClientResources resources;

    private RedisClient redis;

    private ExecutorService callers;

    @BeforeEach
    void setUp() {
        this.server = RedisServer.start();
        this.resources = DefaultClientResources.builder()
            .reconnectDelay(RedisLockClient.recommendedReconnectDelay())
            .build();
        this.redis = RedisClient.create(this.resources, RedisURI.create(this.server.uri()));
        this.callers = Executors.newFixedThreadPool(3);
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        this.callers.shutdownNow();
        assertThat(this.callers.awaitTermination(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        if (this.server.isPaused()) {
            this.server.resume();
        }
        this.redis.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        this.resources.shutdown();
        this.server.close();
    }

    @ParameterizedTest
    @EnumSource(RedisDown.class)
    void closeReturnsWithinTheOperationTimeoutAndLeavesNoThreadRunning(RedisDown down) throws Exception {
        Set<Thread> before = clientThreads();
        RedisLockClient client = RedisLockClient.create(this.redis, LockClientOptions.builder()
            .operationTimeout(OPERATION_TIMEOUT)
            .watchdogLease(Duration.ofSeconds(3))
            .build());
        LockLease held = client.getLock("job").acquire(Duration.ZERO);
        Future<LockLease> waiting = this.callers.submit(() -> client.getLock("job").acquire(Duration.ofMinutes(5)));
        Thread.sleep(300); // the waiter queued (it gets its answer from close() either way)
        assertThat(waiting).isNotDone();

        if (down == RedisDown.KILLED) {
            this.server.kill9();
        }
        else {
            this.server.pause();
        }
        Future<LockLease> inFlight = this.callers.submit(() -> client.getLock("other").acquire(Duration.ZERO));
        Thread.sleep(100); // sent (to a frozen server it stays unanswered; a killed one fails it at once)
        long start = System.nanoTime();
        client.close();
        Duration closing = Duration.ofNanos(System.nanoTime() - start);

        Future<?> releasing = this.callers.submit(held::close);
        assertThatExceptionOfType(ExecutionException.class)
            .isThrownBy(() -> waiting.get(BOUND.toMillis(), TimeUnit.MILLISECONDS))
            .withCauseInstanceOf(LockException.class);
        assertThatExceptionOfType(ExecutionException.class)
            .isThrownBy(() -> inFlight.get(BOUND.toMillis(), TimeUnit.MILLISECONDS))
            .withCauseInstanceOf(LockException.class);
        releasing.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
        await().atMost(BOUND).until(() -> newThreads(before).isEmpty());
        System.out.println("close() with Redis " + down.name().toLowerCase() + " took " + closing.toMillis() + " ms");
        assertThat(closing).isLessThan(BOUND);
    }

    private static Set<Thread> clientThreads() {
        return Thread.getAllStackTraces().keySet().stream()
            .filter((thread) -> thread.getName().startsWith("distlock-") && thread.isAlive())
            .collect(Collectors.toSet());
    }

    private static List<String> newThreads(Set<Thread> before) {
        return clientThreads().stream().filter((thread) -> !before.contains(thread)).map(Thread::getName).toList();
    }
}
