package dev.distlock.core.internal.waiting;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.internal.LockEngine;
import dev.distlock.core.internal.protocol.Grant;
import dev.distlock.core.internal.protocol.QueuedProtocol;
import dev.distlock.core.internal.redis.RedisGateways;
import dev.distlock.testsupport.FaultProxy;
import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A queued waiter runs exactly one check loop: one check on its way or one timer armed, never more, whatever the
 * room tells it meanwhile. The waiter's checks are held in flight by a proxy, so the moment of the room's call is
 * certain; the checks that reached Redis are counted by the acquire script's {@code EXISTS}.
 */
class CheckLoopTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    /** The head checks every 1-2 s: no check of its own loop can fall between the counts below. */
    private static final Duration BACKOFF = Duration.ofSeconds(2);

    private final Deque<AutoCloseable> resources = new ArrayDeque<>();

    private FaultProxy proxy;

    private RedisCommands<String, String> raw;

    @BeforeEach
    void setUp() {
        redis.flushAll();
        this.proxy = FaultProxy.start(redis.server());
        this.resources.push(this.proxy);
        RedisClient rawClient = RedisClient.create(RedisURI.create(redis.uri()));
        this.resources.push(rawClient::shutdown);
        StatefulRedisConnection<String, String> connection = rawClient.connect();
        this.resources.push(connection);
        this.raw = connection.sync();
    }

    @AfterEach
    void tearDown() throws Exception {
        while (!this.resources.isEmpty()) {
            this.resources.pop().close();
        }
    }

    @Test
    void becomingTheCheckerWhileACheckIsInFlightStartsNoSecondLoop() throws Exception {
        LockEngine holder = engine(redis.uri());
        LockEngine waiter = engine(this.proxy.uri());
        QueuedProtocol held = new QueuedProtocol(holder, holder.keys("loop"));
        new QueuedAcquisition(holder.waiting(), held, 60_000, Duration.ZERO).start().get(5, TimeUnit.SECONDS);
        QueuedAcquisition waiting = new QueuedAcquisition(waiter.waiting(),
                new QueuedProtocol(waiter, waiter.keys("loop")), 60_000, Duration.ofSeconds(60));
        CompletableFuture<Grant> result = waiting.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> this.raw.llen("lock:{loop}:queue") == 1);
        long before = acquireCalls();

        this.proxy.blackhole();
        // Past the longest back-off: the waiter's check has left and is held in the proxy.
        Thread.sleep(BACKOFF.plusMillis(500).toMillis());
        // What its room tells it when the local waiter ahead of it leaves.
        waiting.becameChecker();
        // Past another back-off: a second loop's timer, had one been armed, has sent its check too.
        Thread.sleep(BACKOFF.plusMillis(500).toMillis());
        this.proxy.pass();
        await().atMost(Duration.ofSeconds(5)).until(() -> acquireCalls() > before);
        // The held checks reach Redis back to back; the next one of a single loop comes at least 1 s later.
        Thread.sleep(300);

        assertThat(acquireCalls() - before).as("checks that were on their way at once").isEqualTo(1);
        assertThat(result).isNotDone();
        result.cancel(false);
    }

    @Test
    void aRefusedWaiterSleepsQueuedAndIsDoneWithTheHandoff() throws Exception {
        LockEngine holder = engine(redis.uri());
        LockEngine waiter = engine(redis.uri());
        QueuedProtocol held = new QueuedProtocol(holder, holder.keys("phases"));
        Grant grant = new QueuedAcquisition(holder.waiting(), held, 60_000, Duration.ZERO).start()
            .get(5, TimeUnit.SECONDS);
        QueuedAcquisition waiting = new QueuedAcquisition(waiter.waiting(),
                new QueuedProtocol(waiter, waiter.keys("phases")), 60_000, Duration.ofSeconds(60));
        CompletableFuture<Grant> result = waiting.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> waiting.phase() == QueuedPhase.QUEUED);

        assertThat(held.release(grant.owner()).get(5, TimeUnit.SECONDS)).isTrue();

        assertThat(result.get(10, TimeUnit.SECONDS).owner()).isNotEqualTo(grant.owner());
        assertThat(waiting.phase()).isEqualTo(QueuedPhase.DONE);
    }

    private LockEngine engine(String uri) {
        RedisClient client = RedisClient.create(RedisURI.create(uri));
        this.resources.push(client::shutdown);
        LockClientOptions options = LockClientOptions.builder()
            .maxBackoff(BACKOFF)
            .operationTimeout(Duration.ofSeconds(20))
            .build();
        LockEngine engine = new LockEngine(RedisGateways.open(client, false, options.operationTimeout()), options);
        this.resources.push(engine);
        return engine;
    }

    /** Acquire attempts: the acquire script alone reads its tombstone with EXISTS. */
    private long acquireCalls() {
        Matcher matcher = Pattern.compile("cmdstat_exists:calls=(\\d+)").matcher(this.raw.info("commandstats"));
        return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
    }
}
