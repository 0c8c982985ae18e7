package dev.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An asynchronous acquisition whose future the caller completes first (cancel, orTimeout, completeOnTimeout,
 * complete) is abandoned: a grant that arrives later is released, not left locked for its lease.
 *
 * <p>The abandoned acquisitions ask for a 60 s lease, so a grant left behind blocks the lock far longer than the 10 s
 * the checks wait: the bounds are generous and still cannot pass by accident.
 */
class AsyncAbandonmentTests extends RedisLockTest {

    private static final Duration LONG_LEASE = Duration.ofSeconds(60);

    private static final Duration SETTLE = Duration.ofSeconds(10);

    private RedisLockClient client;

    private RedisLockClient other;

    @BeforeEach
    void setUp() {
        this.client = this.clients.create();
        this.other = this.clients.create();
    }

    static Stream<Arguments> callerCompletions() {
        return Stream.of(
                Arguments.of("cancel", (Consumer<CompletableFuture<LockLease>>) (f) -> f.cancel(false)),
                Arguments.of("orTimeout", (Consumer<CompletableFuture<LockLease>>) (f) -> f.orTimeout(50,
                        TimeUnit.MILLISECONDS)),
                Arguments.of("completeOnTimeout", (Consumer<CompletableFuture<LockLease>>) (f) -> f
                    .completeOnTimeout(null, 50, TimeUnit.MILLISECONDS)),
                Arguments.of("complete", (Consumer<CompletableFuture<LockLease>>) (f) -> f.complete(null)),
                Arguments.of("completeExceptionally", (Consumer<CompletableFuture<LockLease>>) (f) -> f
                    .completeExceptionally(new IllegalStateException("caller gave up"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("callerCompletions")
    void aWaitingAcquisitionCompletedByTheCallerTakesNothingAfterwards(String how,
            Consumer<CompletableFuture<LockLease>> giveUp) throws Exception {
        LockLease held = this.other.getLock("given-up").acquire(Duration.ZERO);
        CompletableFuture<LockLease> waiting = this.client.getLock("given-up")
            .acquireAsync(Duration.ofSeconds(60), LONG_LEASE)
            .toCompletableFuture();
        await().atMost(SETTLE).until(() -> this.client.waitingLockCount() > 0);
        giveUp.accept(waiting);
        await().atMost(SETTLE).until(waiting::isDone);
        held.close();

        await().atMost(SETTLE).until(() -> this.client.waitingLockCount() == 0);
        // The abandoned operation must not be granted the lock the holder just released.
        try (LockLease next = this.other.getLock("given-up").tryAcquire(SETTLE).orElseThrow()) {
            assertThat(next.isHeld()).isTrue();
        }
        assertThat(this.client.activeLeaseCount()).isZero();
    }

    @Test
    void uncontendedAcquisitionsCompletedByTheCallerAtOnceLeaveNoKeys() {
        int count = 300;
        List<CompletableFuture<LockLease>> futures = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            CompletableFuture<LockLease> future = this.client.getLock("raced-" + i)
                .acquireAsync(Duration.ZERO, LONG_LEASE)
                .toCompletableFuture();
            if (i % 2 == 0) {
                future.complete(null);
            }
            else {
                future.orTimeout(1, TimeUnit.MILLISECONDS);
            }
            futures.add(future);
        }
        await().atMost(SETTLE).until(() -> futures.stream().allMatch(CompletableFuture::isDone));
        // A grant that beat the caller's completion was handed out: that lease is the caller's to close.
        long handedOut = futures.stream()
            .filter((future) -> !future.isCompletedExceptionally() && future.join() != null)
            .peek((future) -> future.join().close())
            .count();
        assertThat(handedOut).as("some grants arrive after the caller completed the future").isLessThan(count);
        // Each operation's grant is released when it arrives; none may stay locked for its 60 s lease.
        await().atMost(SETTLE).untilAsserted(() -> assertThat(lockKeys()).isEmpty());
        assertThat(this.client.activeLeaseCount()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("callerCompletions")
    void aMultiLockCompletedByTheCallerReleasesTheMembersItTook(String how,
            Consumer<CompletableFuture<LockLease>> giveUp) throws Exception {
        // "a" sorts first and is free, "b" is held: the acquisition takes "a" and waits for "b".
        LockLease heldB = this.other.getLock("b").acquire(Duration.ZERO);
        CompletableFuture<LockLease> waiting = this.client.getMultiLock("a", "b")
            .acquireAsync(Duration.ofSeconds(60), LONG_LEASE)
            .toCompletableFuture();
        await().atMost(SETTLE).until(() -> this.raw.exists("lock:{a}") == 1 && this.client.waitingLockCount() > 0);
        giveUp.accept(waiting);
        await().atMost(SETTLE).until(waiting::isDone);

        await().atMost(SETTLE).until(() -> this.raw.exists("lock:{a}") == 0);
        heldB.close();
        await().atMost(SETTLE).until(() -> this.client.waitingLockCount() == 0);
        try (LockLease both = this.other.getMultiLock("a", "b").tryAcquire(SETTLE).orElseThrow()) {
            assertThat(both.fencingTokens()).containsOnlyKeys("a", "b");
        }
        assertThat(this.client.activeLeaseCount()).isZero();
    }

    @Test
    void aMultiLockThatCompletesNormallyIsNotReleased() throws Exception {
        CompletableFuture<LockLease> acquired = this.client.getMultiLock("x", "y").acquireAsync(Duration.ZERO)
            .toCompletableFuture();
        try (LockLease lease = acquired.get(10, TimeUnit.SECONDS)) {
            assertThat(lease.isHeld()).isTrue();
            assertThat(this.raw.exists("lock:{x}", "lock:{y}")).isEqualTo(2);
            assertThat(acquired.cancel(false)).isFalse();
            Thread.sleep(200);
            assertThat(lease.isHeld()).isTrue();
            assertThat(this.raw.exists("lock:{x}", "lock:{y}")).isEqualTo(2);
        }
        assertThat(this.raw.exists("lock:{x}", "lock:{y}")).isZero();
    }

    private List<String> lockKeys() {
        return this.raw.keys("lock:*").stream()
            .filter((key) -> !key.endsWith(":fence") && !key.contains(":abandoned:"))
            .toList();
    }
}
