package dev.distlock.core.reactive;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.LostLeasePolicy;
import dev.distlock.core.RedisLock;
import dev.distlock.core.RedisLockClient;
import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@link ReactiveLockTemplate} and {@link ReactiveLock} against a real redis-server. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReactiveLockTemplateTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    private static final Duration VERIFY = Duration.ofSeconds(30);

    private RedisClient redisClient;

    private RedisLockClient client;

    private StatefulRedisConnection<String, String> rawConnection;

    private RedisCommands<String, String> raw;

    @BeforeEach
    void setUp() {
        redis.flushAll();
        this.redisClient = RedisClient.create(redis.uri());
        this.client = RedisLockClient.create(this.redisClient,
                LockClientOptions.builder().watchdogLease(Duration.ofMillis(1500)).build());
        this.rawConnection = this.redisClient.connect();
        this.raw = this.rawConnection.sync();
    }

    @AfterEach
    void tearDown() {
        this.client.close();
        this.rawConnection.close();
        this.redisClient.shutdown();
    }

    private ReactiveLockTemplate template(LostLeasePolicy policy) {
        return new ReactiveLockTemplate(this.client, Duration.ofSeconds(20), null, policy);
    }

    @Test
    void monoRunsHoldingTheLockWithItsLeaseInTheContextAndReleasesOnComplete() {
        Mono<String> locked = template(LostLeasePolicy.FAIL).execute("rx", (lease) -> ReactiveLockTemplate
            .currentLease()
            .map((fromContext) -> fromContext == lease && lease.isHeld() && this.raw.exists("lock:{rx}") == 1)
            .map((seen) -> seen + ":" + lease.fencingToken()));
        StepVerifier.create(locked).assertNext((result) -> assertThat(result).startsWith("true:"))
            .expectComplete()
            .verify(VERIFY);
        assertThat(this.raw.exists("lock:{rx}")).isZero();
        assertThat(this.client.activeLeaseCount()).isZero();
    }

    @Test
    void concurrentSubscriptionsExcludeEachOther() {
        ReactiveLockTemplate template = template(LostLeasePolicy.FAIL);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxInside = new AtomicInteger();
        Flux<Integer> all = Flux.range(0, 50)
            .flatMap((i) -> template.execute("shared", (lease) -> Mono.fromCallable(() -> {
                maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                return i;
            }).delayElement(Duration.ofMillis(10)).doOnNext((ignored) -> inside.decrementAndGet())), 50);
        StepVerifier.create(all).expectNextCount(50).expectComplete().verify(Duration.ofSeconds(60));
        assertThat(maxInside).hasValue(1);
        assertThat(this.raw.exists("lock:{shared}")).isZero();
    }

    @Test
    void releasedWhenThePublisherErrors() {
        Mono<String> failing = template(LostLeasePolicy.FAIL).execute("rx-error",
                (lease) -> Mono.error(new IllegalStateException("boom")));
        StepVerifier.create(failing).expectErrorMessage("boom").verify(VERIFY);
        assertThat(this.raw.exists("lock:{rx-error}")).isZero();
    }

    @Test
    void cancelWhileHoldingReleasesTheLock() {
        AtomicBoolean held = new AtomicBoolean();
        AtomicBoolean workCancelled = new AtomicBoolean();
        Disposable subscription = template(LostLeasePolicy.FAIL)
            .execute("rx-cancel", (lease) -> Mono.never().doOnSubscribe((s) -> held.set(true))
                .doOnCancel(() -> workCancelled.set(true)))
            .subscribe();
        await().atMost(Duration.ofSeconds(20)).untilTrue(held);
        assertThat(this.raw.exists("lock:{rx-cancel}")).isOne();
        subscription.dispose();
        await().atMost(Duration.ofSeconds(5)).until(() -> this.raw.exists("lock:{rx-cancel}") == 0);
        assertThat(workCancelled).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> this.client.activeLeaseCount() == 0);
    }

    @Test
    void fluxHoldsTheLockUntilItCompletes() {
        List<Long> existsPerElement = new CopyOnWriteArrayList<>();
        Flux<Long> many = template(LostLeasePolicy.FAIL).executeMany("rx-flux",
                (lease) -> Flux.interval(Duration.ofMillis(50)).take(5)
                    .doOnNext((i) -> existsPerElement.add(this.raw.exists("lock:{rx-flux}"))));
        StepVerifier.create(many).expectNextCount(5).expectComplete().verify(VERIFY);
        assertThat(existsPerElement).containsExactly(1L, 1L, 1L, 1L, 1L);
        assertThat(this.raw.exists("lock:{rx-flux}")).isZero();
    }

    @Test
    void tryExecuteIsEmptyWhenBusyAndDoesNotRunTheAction() throws Exception {
        AtomicBoolean ran = new AtomicBoolean();
        try (LockLease busy = this.client.getLock("rx-busy").acquire(Duration.ofSeconds(5))) {
            Mono<String> attempt = template(LostLeasePolicy.FAIL).tryExecute("rx-busy", Duration.ZERO, (lease) -> {
                ran.set(true);
                return Mono.just("ran");
            });
            StepVerifier.create(attempt).expectComplete().verify(VERIFY);
            StepVerifier.create(template(LostLeasePolicy.FAIL).execute("rx-busy", Duration.ZERO,
                    (lease) -> Mono.just("ran")))
                .expectError(LockNotAcquiredException.class)
                .verify(VERIFY);
            assertThat(busy.isHeld()).isTrue();
        }
        assertThat(ran).isFalse();
    }

    @Test
    void lostLeaseWithPolicyFailErrorsInsteadOfEmitting() {
        ReactiveLockTemplate template = template(LostLeasePolicy.FAIL);
        Mono<String> outlived = template.execute(this.client.getLock("rx-lost"), Duration.ofSeconds(5),
                Duration.ofMillis(200), (lease) -> Mono.delay(Duration.ofMillis(700)).thenReturn("late"));
        StepVerifier.create(outlived).expectError(LockLostException.class).verify(VERIFY);
    }

    @Test
    void lostLeaseWithPolicyInterruptCancelsThePublisher() {
        AtomicBoolean workCancelled = new AtomicBoolean();
        ReactiveLockTemplate template = template(LostLeasePolicy.INTERRUPT);
        Flux<Long> endless = template.executeMany(this.client.getLock("rx-interrupt"), Duration.ofSeconds(5), null,
                (lease) -> Flux.interval(Duration.ofMillis(50)).doOnCancel(() -> workCancelled.set(true))
                    .doOnSubscribe((s) -> this.raw.del("lock:{rx-interrupt}")));
        StepVerifier.create(endless).thenConsumeWhile((i) -> true)
            .expectError(LockLostException.class)
            .verify(VERIFY);
        assertThat(workCancelled).isTrue();
    }

    @Test
    void nestedSectionOnTheSameNameReentersThroughTheContext() {
        ReactiveLockTemplate template = template(LostLeasePolicy.FAIL);
        Mono<Boolean> nested = template.execute("rx-nested", (outer) -> template.execute("rx-nested",
                Duration.ZERO, (inner) -> Mono.just(inner == outer)));
        StepVerifier.create(nested).expectNext(true).expectComplete().verify(VERIFY);
        assertThat(this.raw.exists("lock:{rx-nested}")).isZero();
    }

    @Test
    void nestedWriteLockInsideThePlainLockOfItsNameTakesTheWriteLock() {
        ReactiveLockTemplate template = template(LostLeasePolicy.FAIL);
        RedisLock plain = this.client.getLock("rx-kind");
        RedisLock write = this.client.getReadWriteLock("rx-kind").writeLock();
        Mono<Boolean> nested = template.execute(plain, Duration.ofSeconds(20), null,
                (outer) -> template.execute(write, Duration.ofSeconds(5), null, (inner) -> Mono.fromCallable(
                        () -> inner != outer && this.raw.exists("lock:{rx-kind}:write") == 1)));
        StepVerifier.create(nested).expectNext(true).expectComplete().verify(VERIFY);
        assertThat(this.raw.exists("lock:{rx-kind}", "lock:{rx-kind}:write")).isZero();
    }

    @Test
    void nestedSectionOnAMemberOfTheEnclosingMultiLockReentersItsLease() {
        ReactiveLockTemplate template = template(LostLeasePolicy.FAIL);
        RedisLock multi = this.client.getMultiLock("rx-m-a", "rx-m-b");
        Mono<Boolean> nested = template.execute(multi, Duration.ofSeconds(20), null,
                (outer) -> template.execute("rx-m-a", Duration.ofMillis(500),
                        (inner) -> Mono.just(inner.isHeld() && inner.fencingToken() == outer.fencingTokens()
                            .get("rx-m-a"))));
        StepVerifier.create(nested).expectNext(true).expectComplete().verify(VERIFY);
        assertThat(this.raw.exists("lock:{rx-m-a}", "lock:{rx-m-b}")).isZero();
    }

    @Test
    void nestedMultiLockOverlappingTheEnclosingLocksInPartFailsAtOnce() {
        ReactiveLockTemplate template = template(LostLeasePolicy.FAIL);
        RedisLock multi = this.client.getMultiLock("rx-p-a", "rx-p-c");
        Mono<String> nested = template.execute("rx-p-a",
                (outer) -> template.execute(multi, Duration.ofSeconds(20), null, (inner) -> Mono.just("ran")));
        long start = System.nanoTime();
        StepVerifier.create(nested)
            .expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("rx-p-a,rx-p-c").hasMessageContaining("lock:{rx-p-c}"))
            .verify(VERIFY);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        assertThat(this.raw.exists("lock:{rx-p-a}", "lock:{rx-p-c}")).isZero();
    }

    @Test
    void nestedSectionOfAnotherClientDoesNotReenter() {
        ReactiveLockTemplate template = template(LostLeasePolicy.FAIL);
        try (RedisLockClient other = RedisLockClient.create(this.redisClient, LockClientOptions.builder().build())) {
            ReactiveLockTemplate otherTemplate = new ReactiveLockTemplate(other, Duration.ofSeconds(20), null,
                    LostLeasePolicy.FAIL);
            Mono<String> nested = template.execute("rx-client",
                    (outer) -> otherTemplate.execute("rx-client", Duration.ofMillis(300), (inner) -> Mono.just("ran")));
            StepVerifier.create(nested).expectError(LockNotAcquiredException.class).verify(VERIFY);
        }
        assertThat(this.raw.exists("lock:{rx-client}")).isZero();
    }

    @Test
    void cancelWhileWaitingAbandonsTheAcquisition() throws Exception {
        Disposable waiting;
        try (LockLease busy = this.client.getLock("rx-wait").acquire(Duration.ofSeconds(5))) {
            waiting = ReactiveLock.of(this.client.getLock("rx-wait")).acquire(Duration.ofSeconds(20)).subscribe();
            Thread.sleep(200);
            waiting.dispose();
            assertThat(busy.isHeld()).isTrue();
        }
        // Nobody is left to take the lock: it stays free, and no lease is held by nobody.
        Thread.sleep(500);
        assertThat(this.raw.exists("lock:{rx-wait}")).isZero();
        assertThat(this.client.activeLeaseCount()).isZero();
    }
}
