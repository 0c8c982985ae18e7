package dev.distlock.core;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.distlock.testsupport.FaultProxy;
import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A reentrant acquisition that races the close of the thread's last lease by another thread never hands out a lease
 * on the released lock: it acquires afresh.
 */
class ReentryRaceTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    /** Long enough for the close to happen while the reentry's round trip is held, even on a busy machine. */
    private static final Duration REPLY_DELAY = Duration.ofMillis(1500);

    private LockClients clients;

    private LockClients proxied;

    private FaultProxy proxy;

    private RedisLockClient client;

    private RedisLockClient other;

    private RedisCommands<String, String> raw;

    private ExecutorService holderThread;

    @BeforeEach
    void setUp() {
        redis.flushAll();
        this.proxy = FaultProxy.start(redis.server());
        this.clients = new LockClients(redis.uri());
        // Through the proxy, with a watchdog lease long enough that no renewal runs during the test.
        this.proxied = new LockClients(this.proxy.uri());
        this.client = this.proxied.create(LockClientOptions.builder()
            .watchdogLease(Duration.ofSeconds(30)).operationTimeout(Duration.ofSeconds(10)).build());
        this.other = this.clients.create();
        this.raw = this.clients.raw();
        this.holderThread = Executors.newSingleThreadExecutor();
    }

    @AfterEach
    void tearDown() throws Exception {
        this.holderThread.shutdownNow();
        this.proxied.close();
        this.clients.close();
        this.proxy.close();
    }

    @Test
    void reentryRacingTheCloseOfTheLastLeaseReturnsAHeldLease() throws Exception {
        RedisLock lock = this.client.getLock("raced");
        LockLease outer = this.holderThread.submit(() -> lock.acquire(Duration.ZERO)).get(10, TimeUnit.SECONDS);
        long outerToken = outer.fencingToken();

        this.proxy.delay(FaultProxy.Direction.REPLIES, REPLY_DELAY, Duration.ZERO);
        // The holder thread re-enters: its ownership check is sent at once, its reply held by the proxy.
        Future<LockLease> nested = this.holderThread.submit(() -> lock.acquire(Duration.ofSeconds(20)));
        Thread.sleep(REPLY_DELAY.toMillis() / 3);
        // Meanwhile another thread closes the only lease: the key is deleted after the check ran on Redis.
        outer.close();
        this.proxy.pass();

        try (LockLease lease = nested.get(30, TimeUnit.SECONDS)) {
            assertThat(lease.isHeld()).as("the lease handed out is held").isTrue();
            assertThat(this.raw.exists("lock:{raced}")).as("the lock key exists").isOne();
            assertThat(this.other.getLock("raced").tryAcquire()).as("nobody else can take it").isEmpty();
            assertThat(lease.fencingToken()).isGreaterThan(outerToken);
        }
        assertThat(this.raw.exists("lock:{raced}")).isZero();
        assertThat(this.client.activeLeaseCount()).isZero();
    }
}
