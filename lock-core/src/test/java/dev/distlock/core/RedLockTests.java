package dev.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.distlock.testsupport.RedisExtension;
import dev.distlock.testsupport.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

class RedLockTests {

    private static final Duration NODE_TIMEOUT = Duration.ofMillis(200);

    /** Fresh servers per test: tests stop and pause them. */
    @RegisterExtension
    final RedisExtension redis = RedisExtension.independent(5);

    private final List<RedisClient> redisClients = new ArrayList<>();

    private RedLockClient client;

    @BeforeEach
    void setUp() {
        for (String uri : this.redis.uris()) {
            this.redisClients.add(RedisClient.create(RedisURI.create(uri)));
        }
        this.client = RedLockClient.create(this.redisClients,
                LockClientOptions.builder().watchdogLease(LockClients.TEST_WATCHDOG_LEASE).build(), NODE_TIMEOUT);
    }

    @AfterEach
    void tearDown() {
        for (RedisServer server : this.redis.servers()) {
            if (server.isPaused()) {
                server.resume();
            }
        }
        this.client.close();
        this.redisClients.forEach(RedisClient::shutdown);
    }

    @Test
    void acquiresOnAllNodesAndReleasesEverywhere() throws Exception {
        long started = System.nanoTime();
        try (LockLease lease = this.client.getLock("red").acquire(Duration.ZERO)) {
            System.out.println("RedLock acquire on 5 local nodes took "
                    + TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - started) + " us");
            assertThat(keyCount("lock:{red}")).isEqualTo(5);
        }
        // The release returns once a majority answered; the last nodes' releases may still be on their way.
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> keyCount("lock:{red}") == 0);
    }

    @Test
    void stillAcquiresWithTwoNodesStopped() throws Exception {
        this.redis.server(0).stop();
        this.redis.server(1).stop();
        try (LockLease lease = this.client.getLock("red").acquire(Duration.ofSeconds(2))) {
            assertThat(lease.isHeld()).isTrue();
            Thread.sleep(LockClients.TEST_WATCHDOG_LEASE.toMillis());
            assertThat(lease.isHeld()).as("renewed by the majority").isTrue();
        }
    }

    @Test
    void failsFastWithThreeNodesStopped() throws Exception {
        for (int i = 0; i < 3; i++) {
            this.redis.server(i).stop();
        }
        long started = System.nanoTime();
        Optional<LockLease> lease = this.client.getLock("red").tryAcquire(Duration.ZERO);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertThat(lease).isEmpty();
        // One attempt bounded by the node timeout; the allowance covers a busy machine, not a second attempt.
        assertThat(millis).isLessThan(NODE_TIMEOUT.toMillis() + 1500);
        // The attempt is decided by the three failures; the grants of nodes 3 and 4 are released as they arrive.
        org.awaitility.Awaitility.await("partial grants released").atMost(Duration.ofSeconds(5))
            .until(() -> keyCount("lock:{red}", 3) == 0);
    }

    @Test
    void partialGrantIsReleasedOnEveryNode() throws Exception {
        for (int i = 0; i < 3; i++) {
            raw(i).set("lock:{red}", "someone-else");
        }
        assertThat(this.client.getLock("red").tryAcquire(Duration.ZERO)).isEmpty();
        // the attempt is decided by the three refusals; the grants of nodes 3 and 4 are released as they arrive
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (raw(3).exists("lock:{red}") + raw(4).exists("lock:{red}") > 0 && System.nanoTime() - deadline < 0) {
            Thread.sleep(10);
        }
        assertThat(raw(3).exists("lock:{red}")).isZero();
        assertThat(raw(4).exists("lock:{red}")).isZero();
        for (int i = 0; i < 3; i++) {
            assertThat(raw(i).get("lock:{red}")).isEqualTo("someone-else");
        }
    }

    @Test
    void aPausedMinorityNeitherDelaysTheGrantNorShortensItsValidity() throws Exception {
        this.redis.server(0).pause();
        this.redis.server(1).pause();
        Duration lease = Duration.ofSeconds(5);
        long started = System.nanoTime();
        try (LockLease held = this.client.getLock("red").acquire(Duration.ofSeconds(2), lease)) {
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            Duration validity = held.remainingValidity();
            System.out.println("RedLock with 2 paused nodes: acquired in " + tookMillis + " ms, validity "
                    + validity.toMillis() + " ms of " + lease.toMillis());
            // decided by the three live nodes, without waiting for the paused ones' timeouts
            assertThat(tookMillis).isLessThan(NODE_TIMEOUT.toMillis());
            assertThat(validity).isLessThanOrEqualTo(lease.minusMillis(lease.toMillis() / 100 + 2));
            assertThat(validity).isGreaterThan(lease.minus(NODE_TIMEOUT));
        }
        finally {
            this.redis.server(0).resume();
            this.redis.server(1).resume();
        }
    }

    /** Issue 9 item 10: a failed attempt with a node down must not tombstone the acquisition's later attempts. */
    @Test
    void aWaiterStillAcquiresAfterAttemptsThatADownNodeLeftUnanswered() throws Exception {
        try (RedLockClient other = newClient(LockClientOptions.builder()
            .watchdogLease(LockClients.TEST_WATCHDOG_LEASE).maxBackoff(Duration.ofMillis(300)).build())) {
            this.redis.server(4).stop();
            LockLease held = this.client.getLock("red").acquire(Duration.ZERO, Duration.ofSeconds(30));
            CompletableFuture<Optional<LockLease>> waiter = waitInThread(other.getLock("red"), Duration.ofSeconds(6));
            Thread.sleep(700); // a few refused attempts, each with node 4 unanswered
            held.close();
            Optional<LockLease> taken = waiter.get(10, TimeUnit.SECONDS);
            assertThat(taken).as("acquired by a later attempt of the same acquisition").isPresent();
            taken.get().close();
        }
    }

    /** Issue 9 item 11: the token is written back to a majority, so a node clock far ahead cannot reorder tokens. */
    @Test
    void fencingTokensIncreaseAcrossSkewedNodeCounters() throws Exception {
        // node 0's counter is an hour ahead, as if its clock were
        long skewed = TimeUnit.MILLISECONDS.toMicros(System.currentTimeMillis() + 3_600_000);
        raw(0).set("lock:{red}:fence", Long.toString(skewed));
        this.redis.server(3).pause();
        this.redis.server(4).pause();
        long first;
        try (LockLease lease = this.client.getLock("red").acquire(Duration.ofSeconds(2))) {
            first = lease.fencingToken(); // granted by nodes 0, 1, 2
        }
        assertThat(first).isGreaterThan(skewed);
        this.redis.server(3).resume();
        this.redis.server(4).resume();
        this.redis.server(0).pause();
        try (LockLease lease = this.client.getLock("red").acquire(Duration.ofSeconds(2))) {
            // granted by nodes 1-4, whose own counters and clocks are an hour behind node 0
            assertThat(lease.fencingToken()).isGreaterThan(first);
        }
        finally {
            this.redis.server(0).resume();
        }
    }

    /** A release wakes the waiters of other clients instead of leaving them to their back-off. */
    @Test
    void aReleaseWakesAWaiterOfAnotherClient() throws Exception {
        try (RedLockClient other = newClient(LockClientOptions.builder()
            .watchdogLease(LockClients.TEST_WATCHDOG_LEASE).maxBackoff(Duration.ofSeconds(20)).build())) {
            // Its own name: registrations of earlier tests' waiters (deadline 3 back-offs) must not be in the way.
            LockLease held = this.client.getLock("red-wake").acquire(Duration.ZERO, Duration.ofSeconds(60));
            CompletableFuture<Optional<LockLease>> waiter = waitInThread(other.getLock("red-wake"), Duration.ofSeconds(30));
            // Refused once, now waiting (subscribed and registered); on a loaded machine that can take a while.
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> other.waitingLockCount() == 1);
            // ... and listening on every node: a subscription counts as made after the node timeout even when a slow
            // machine has not confirmed it yet, and a release before that would only be seen after the back-off.
            String channel = "lock:{red-wake}:released:redlock";
            for (int node = 0; node < this.redis.uris().size(); node++) {
                RedisCommands<String, String> raw = raw(node);
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> raw.pubsubNumsub(channel).getOrDefault(channel, 0L) >= 1);
            }
            Thread.sleep(500);
            long released = System.nanoTime();
            held.close();
            Optional<LockLease> taken = waiter.get(15, TimeUnit.SECONDS);
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released);
            System.out.println("RedLock waiter acquired " + tookMillis + " ms after the release (back-off 10-20 s)");
            assertThat(taken).isPresent();
            assertThat(tookMillis).as("woken, not retried after its 10-20 s back-off").isLessThan(5_000);
            taken.get().close();
        }
    }

    /** The documented ACL (keys and channels under the prefix) covers RedLock's wake-ups: the release publishes. */
    @Test
    void aReleaseWakesAWaiterWhenBothRunAsTheDocumentedAclUser() throws Exception {
        for (int node = 0; node < this.redis.uris().size(); node++) {
            List<String> rules = new ArrayList<>(List.of("reset", ">locks-secret"));
            rules.addAll(AclUserContractTests.LOCK_USER_RULES);
            raw(node).dispatch(io.lettuce.core.protocol.CommandType.ACL, new io.lettuce.core.output.StatusOutput<>(
                    io.lettuce.core.codec.StringCodec.UTF8), new io.lettuce.core.protocol.CommandArgs<>(
                            io.lettuce.core.codec.StringCodec.UTF8).add("SETUSER").add("locks").addValues(rules));
        }
        LockClientOptions options = LockClientOptions.builder().watchdogLease(LockClients.TEST_WATCHDOG_LEASE)
            .maxBackoff(Duration.ofSeconds(20)).build();
        try (RedLockClient holder = newClient(options, "locks:locks-secret@");
                RedLockClient other = newClient(options, "locks:locks-secret@")) {
            LockLease held = holder.getLock("red-acl").acquire(Duration.ZERO, Duration.ofSeconds(60));
            CompletableFuture<Optional<LockLease>> waiter = waitInThread(other.getLock("red-acl"),
                    Duration.ofSeconds(30));
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> other.waitingLockCount() == 1);
            String channel = "lock:{red-acl}:released:redlock";
            for (int node = 0; node < this.redis.uris().size(); node++) {
                RedisCommands<String, String> raw = raw(node);
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> raw.pubsubNumsub(channel).getOrDefault(channel, 0L) >= 1);
            }
            held.close();
            Optional<LockLease> taken = waiter.get(15, TimeUnit.SECONDS);
            assertThat(taken).isPresent();
            taken.get().close();
        }
    }

    /**
     * A release reaches the nodes one by one. The waiter woken by the first node's message attempts while the others
     * still hold the lock and is refused; the copy that shows a majority released it wakes the waiter again, long
     * before its back-off (20 s) would.
     */
    @Test
    void aWaiterWokenBeforeAMajorityReleasedIsWokenAgainByTheMajority() throws Exception {
        LockClientOptions options = LockClientOptions.builder().watchdogLease(LockClients.TEST_WATCHDOG_LEASE)
            .maxBackoff(Duration.ofSeconds(20)).build();
        try (RedLockClient holder = newClient(options); RedLockClient other = newClient(options)) {
            LockLease held = holder.getLock("red-steps").acquire(Duration.ZERO, Duration.ofSeconds(60));
            CompletableFuture<Optional<LockLease>> waiter = waitInThread(other.getLock("red-steps"),
                    Duration.ofSeconds(30));
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> other.waitingLockCount() == 1);
            String key = "lock:{red-steps}";
            String channel = key + ":released:redlock";
            for (int node = 0; node < this.redis.uris().size(); node++) {
                RedisCommands<String, String> raw = raw(node);
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> raw.pubsubNumsub(channel).getOrDefault(channel, 0L) >= 1);
            }
            String token = raw(0).get(key);
            // The first node releases (as the release script does: delete, then publish the released owner token).
            raw(0).del(key);
            raw(0).publish(channel, token);
            Thread.sleep(1000); // woken, attempted, refused by the nodes that still hold it
            assertThat(waiter).isNotDone();
            // The next nodes release, up to a majority.
            int quorum = this.redis.uris().size() / 2 + 1;
            for (int node = 1; node < quorum; node++) {
                raw(node).del(key);
                raw(node).publish(channel, token);
            }

            Optional<LockLease> taken = waiter.get(8, TimeUnit.SECONDS);
            assertThat(taken).isPresent();
            taken.get().close();
            try {
                held.close();
            }
            catch (LockLostException expected) {
                // its keys were deleted under it on a majority of the nodes
            }
        }
    }

    /** No barging: while another client waits, the releaser's immediate re-acquire is refused. */
    @Test
    void aReleaserCannotTakeTheLockBackWhileAnotherClientWaits() throws Exception {
        try (RedLockClient other = newClient(LockClientOptions.builder()
            .watchdogLease(LockClients.TEST_WATCHDOG_LEASE).build())) {
            RedisLock mine = this.client.getLock("red");
            LockLease held = mine.acquire(Duration.ZERO, Duration.ofSeconds(60));
            CompletableFuture<Optional<LockLease>> waiter = waitInThread(other.getLock("red"), Duration.ofSeconds(30));
            Thread.sleep(500); // refused once, now waiting
            held.close();
            Optional<LockLease> barged = mine.tryAcquire();
            barged.ifPresent(LockLease::close);
            assertThat(barged).as("re-acquired at once by the releaser").isEmpty();
            Optional<LockLease> taken = waiter.get(15, TimeUnit.SECONDS);
            assertThat(taken).isPresent();
            taken.get().close();
            assertThat(mine.tryAcquire()).as("free again once nobody waits").hasValueSatisfying(LockLease::close);
        }
    }

    @Test
    void lostWhenAMajorityRefusesRenewal() throws Exception {
        LockLease lease = this.client.getLock("red").acquire(Duration.ZERO);
        for (int i = 0; i < 3; i++) {
            raw(i).del("lock:{red}");
        }
        // Told at the next renewal, a third of the lease later; a loaded machine gets a generous bound, not a sleep.
        org.awaitility.Awaitility.await().atMost(LockClients.TEST_WATCHDOG_LEASE.multipliedBy(4))
            .until(() -> !lease.isHeld());
    }

    private RedLockClient newClient(LockClientOptions options) {
        return newClient(options, "");
    }

    /** A client on every node, as {@code credentials} ({@code user:password@}, or "" for the default user). */
    private RedLockClient newClient(LockClientOptions options, String credentials) {
        List<RedisClient> masters = new ArrayList<>();
        for (String uri : this.redis.uris()) {
            RedisClient redisClient = RedisClient.create(RedisURI.create(uri.replace("redis://",
                    "redis://" + credentials)));
            this.redisClients.add(redisClient);
            masters.add(redisClient);
        }
        return RedLockClient.create(masters, options, NODE_TIMEOUT);
    }

    /**
     * Waits for the lock asynchronously: the lease belongs to no thread, so it stays held until the test closes it
     * (a lease taken on a thread that then ends is released by the watchdog, racing the test's close).
     */
    private static CompletableFuture<Optional<LockLease>> waitInThread(RedisLock lock, Duration wait) {
        return lock.acquireAsync(wait).toCompletableFuture().handle((lease, ex) -> {
            if (ex == null) {
                return Optional.of(lease);
            }
            Throwable cause = (ex instanceof java.util.concurrent.CompletionException) ? ex.getCause() : ex;
            if (cause instanceof LockNotAcquiredException) {
                return Optional.<LockLease>empty();
            }
            throw new java.util.concurrent.CompletionException(cause);
        });
    }

    private long keyCount(String key) {
        return keyCount(key, 0);
    }

    private long keyCount(String key, int fromNode) {
        long count = 0;
        for (int i = fromNode; i < 5; i++) {
            count += raw(i).exists(key);
        }
        return count;
    }

    private final Map<Integer, RedisCommands<String, String>> rawConnections = new HashMap<>();

    private RedisCommands<String, String> raw(int node) {
        return this.rawConnections.computeIfAbsent(node, (index) -> {
            RedisClient redisClient = RedisClient.create(RedisURI.create(this.redis.server(index).uri()));
            this.redisClients.add(redisClient);
            StatefulRedisConnection<String, String> connection = redisClient.connect();
            return connection.sync();
        });
    }
}
