package dev.distlock.spring.aop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockLostException;
import dev.distlock.core.RedisLockClient;
import dev.distlock.core.reactive.ReactiveLockTemplate;
import dev.distlock.spring.aop.ReactiveServices.AsyncRun;
import dev.distlock.spring.aop.ReactiveServices.AsyncWorkService;
import dev.distlock.spring.aop.ReactiveServices.CounterController;
import dev.distlock.spring.aop.ReactiveServices.CounterService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.blockhound.BlockHound;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@code @DistributedLock} on {@code Mono}, {@code Flux} and {@code CompletionStage} methods of a WebFlux application
 * on a real redis-server, with BlockHound watching every Reactor and Netty event-loop thread for blocking calls.
 */
@ExtendWith(RedisForSpring.class)
// reactive also where Spring MVC is on the class path too (Boot 3.5 would pick a servlet server then)
@SpringBootTest(classes = ReactiveLockingWebFluxTests.TestApplication.class,
        webEnvironment = WebEnvironment.RANDOM_PORT, properties = "spring.main.web-application-type=reactive")
@DirtiesContext
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReactiveLockingWebFluxTests {

    /** Blocking calls BlockHound caught on non-blocking threads, anywhere in this JVM. */
    private static final List<String> blockingCalls = new CopyOnWriteArrayList<>();

    static {
        // Reactor's integration (found on the class path) marks the non-blocking threads: Netty event loops of the
        // server and Reactor's parallel workers. The claim under test is that distlock never blocks them, so a
        // blocking call fails (and is recorded) when distlock code is on the stack. Blocking inside Netty's or
        // Spring's own code with no distlock frame (e.g. buffer pool contention) is not this library's to judge.
        // Owner tokens come from SecureRandom, a read of /dev/urandom that does not wait for entropy on Linux.
        BlockHound.install((builder) -> builder
            .allowBlockingCallsInside("dev.distlock.core.internal.protocol.OwnerTokens", "randomBase64")
            // Lettuce's own short writer lock around a command write; contention on it is Lettuce's, not a wait of
            // this library, and reporting it from inside that section is what once hung a run.
            .allowBlockingCallsInside("io.lettuce.core.protocol.SharedLock", "incrementWriters")
            .allowBlockingCallsInside("io.lettuce.core.protocol.SharedLock", "decrementWriters")
            // Cancelling a queued waiter's check timer when a handoff grants it on the event loop removes the task from
            // the scheduler's queue, which takes that queue's lock for a few instructions and may park while another
            // thread holds it (seen once in a full build). Reactor's own BlockHound integration allows the same short
            // park for the same queue: DelayedWorkQueue offer and take, and a cancel that removes (SchedulerTask).
            .allowBlockingCallsInside("java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue", "remove")
            .blockingMethodCallback((method) -> {
                StackTraceElement[] stack = new Throwable().getStackTrace();
                if (!hasDistlockFrame(stack)) {
                    return;
                }
                StringBuilder trace = new StringBuilder();
                for (StackTraceElement element : stack) {
                    trace.append("\n    at ").append(element);
                }
                // Recorded, not thrown: an error thrown inside Lettuce's own critical sections left its connection
                // lock held and hung the run. Every test asserts that nothing was recorded.
                blockingCalls.add(method + " on " + Thread.currentThread().getName() + trace);
            }));
    }

    private static boolean hasDistlockFrame(StackTraceElement[] stack) {
        for (StackTraceElement element : stack) {
            String type = element.getClassName();
            if (type.startsWith("dev.distlock.") && !type.startsWith(ReactiveLockingWebFluxTests.class.getName())
                    && !type.startsWith(ReactiveServices.class.getName())) {
                return true;
            }
        }
        return false;
    }

    private static ExecutorService callers;

    @LocalServerPort
    private int port;

    @Autowired
    private CounterService counters;

    @Autowired
    private AsyncWorkService asyncWork;

    @Autowired
    private RedisLockClient lockClient;

    @Autowired
    private ReactiveStringRedisTemplate redis;

    @DynamicPropertySource
    static void redisProperties(DynamicPropertyRegistry registry) {
        RedisForSpring.register(registry);
    }

    @BeforeAll
    static void startCallers() {
        callers = Executors.newFixedThreadPool(4);
    }

    @AfterAll
    static void stopCallers() throws InterruptedException {
        callers.shutdownNow();
        assertThat(callers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @BeforeEach
    void reset() {
        // Spring Data Redis opens its shared reactive connection with a blocking connect at first use: open it here,
        // on the test thread, so BlockHound only judges the lock's code and the services' steady state.
        this.redis.hasKey("warm-up").block(Duration.ofSeconds(30));
        this.counters.bodyCalls().set(0);
        this.counters.lockedPerElement().clear();
        blockingCalls.clear();
    }

    @Test
    void blockHoundCatchesBlockingLockCallsOnReactorThreads() throws Exception {
        // Proves the detector is armed, so an empty list elsewhere means something: a blocking acquisition that has
        // to wait (the lock is held by another owner), made on a Reactor thread, is recorded.
        int before = blockingCalls.size();
        try (LockLease busy = this.lockClient.getLock("blocking").acquireAsync(Duration.ofSeconds(5))
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS)) {
            Mono.fromCallable(() -> this.lockClient.getLock("blocking").tryAcquire(Duration.ofMillis(500)))
                .subscribeOn(Schedulers.parallel())
                .block(Duration.ofSeconds(10));
            assertThat(busy.isHeld()).isTrue();
        }
        assertThat(blockingCalls).hasSizeGreaterThan(before);
        blockingCalls.subList(before, blockingCalls.size()).clear();
    }

    @Test
    void fiftyConcurrentSubscriptionsCountExactly() {
        List<Long> results = Flux.range(0, 50)
            .flatMap((i) -> this.counters.increment("subscriptions"), 50)
            .collectList()
            .block(Duration.ofSeconds(100));
        assertThat(results).containsExactlyInAnyOrderElementsOf(range(1, 50));
        assertThat(this.lockClient.getLock("counter:subscriptions").isLocked()).isFalse();
        assertThat(blockingCalls).isEmpty();
    }

    @Test
    void fiftyConcurrentRequestsCountExactlyWithoutBlockingAReactorThread() {
        WebTestClient client = WebTestClient.bindToServer()
            .baseUrl("http://localhost:" + this.port)
            .responseTimeout(Duration.ofSeconds(90))
            .build();
        String name = "requests";
        List<Long> results = Flux.range(0, 50)
            .flatMap((i) -> Mono.fromCallable(() -> client.post()
                .uri("/counters/{name}", name)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(Long.class)
                .returnResult()
                .getResponseBody()).subscribeOn(Schedulers.boundedElastic()), 50)
            .onErrorResume((ex) -> Mono.error(new AssertionError("failed; blocking calls: " + blockingCalls, ex)))
            .collectList()
            .block(Duration.ofSeconds(100));
        assertThat(blockingCalls).isEmpty();
        assertThat(results).hasSize(50);
        // Every increment saw the previous one: the values are exactly 1..50.
        assertThat(results).containsExactlyInAnyOrderElementsOf(range(1, 50));
        assertThat(this.lockClient.getLock("counter:" + name).isLocked()).isFalse();
        assertThat(blockingCalls).isEmpty();
    }

    @Test
    void cancelWhileHoldingReleasesTheLockAtOnce() {
        Disposable subscription = this.counters.holdUntilCancelled("c1").subscribe();
        await().atMost(Duration.ofSeconds(20)).until(() -> this.lockClient.getLock("hold:c1").isLocked());
        subscription.dispose();
        long cancelled = this.counters.cancelledAt().get();
        assertThat(cancelled).isPositive();
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
            .until(() -> !this.lockClient.getLock("hold:c1").isLocked());
        long freedAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cancelled);
        // The lease is 30 s (watchdog): a release within a second can only be the release sent on cancel.
        assertThat(freedAfterMillis).isLessThan(1000);
        assertThat(blockingCalls).isEmpty();
    }

    /**
     * F29 for the annotation: calls cancelled 0-3 ms after subscribing (a {@code timeout} or a disposed
     * subscription), about when their grant arrives, must leave no lease renewed for nobody and no lock held.
     */
    @Test
    void cancelsRacingGrantsLeaveNoLockHeld() throws Exception {
        int calls = 10_000;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        List<String> names = List.of("g0", "g1", "g2");
        int made = 0;
        while (made < calls && System.nanoTime() - deadline < 0) {
            made++;
            String name = names.get(random.nextInt(names.size()));
            Flux<String> call = random.nextBoolean() ? this.counters.grantedAtOnce(name).flux()
                    : this.counters.grantedAtOnceMany(name);
            long cancelAfterNanos = random.nextLong(0, 3_000_000);
            if (random.nextBoolean()) {
                call.timeout(Duration.ofNanos(cancelAfterNanos)).onErrorResume(TimeoutException.class,
                        (ex) -> Flux.empty()).blockLast(Duration.ofSeconds(30));
            }
            else {
                Disposable subscription = call.subscribe();
                TimeUnit.NANOSECONDS.sleep(cancelAfterNanos);
                subscription.dispose();
            }
        }
        assertThat(made).as("calls made within the time bound").isGreaterThanOrEqualTo(1_000);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(this.lockClient.activeLeaseCount()).as(() -> "leases: " + this.lockClient.heldLeases())
                .isZero();
            for (String name : names) {
                assertThat(this.lockClient.getLock("grant:" + name).isLocked()).as("grant:%s locked", name).isFalse();
            }
        });
        assertThat(blockingCalls).isEmpty();
    }

    @Test
    void fluxHoldsTheLockUntilItCompletes() {
        StepVerifier.create(this.counters.ticks("t1", 5)).expectNextCount(5).expectComplete()
            .verify(Duration.ofSeconds(30));
        assertThat(this.counters.lockedPerElement()).containsExactly(true, true, true, true, true);
        assertThat(this.lockClient.getLock("ticks:t1").isLocked()).isFalse();
        assertThat(blockingCalls).isEmpty();
    }

    @Test
    void leaseIsInTheReactorContextAndInLockContextAtAssembly() {
        StepVerifier.create(this.counters.leaseSeenInContext("l1")).expectNext(true).expectComplete()
            .verify(Duration.ofSeconds(30));
    }

    @Test
    void skipAndFallbackForEveryReturnType() throws Exception {
        // Held by another owner (an asynchronous lease belongs to no thread), so this thread does not re-enter it.
        try (LockLease busy = this.lockClient.getLock("busy:b1").acquireAsync(Duration.ofSeconds(5))
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS)) {
            StepVerifier.create(this.counters.monoSkip("b1")).expectComplete().verify(Duration.ofSeconds(30));
            StepVerifier.create(this.counters.fluxSkip("b1")).expectComplete().verify(Duration.ofSeconds(30));
            assertThat(this.counters.futureSkip("b1").get(30, TimeUnit.SECONDS)).isNull();
            StepVerifier.create(this.counters.monoFallback("b1")).expectNext("fallback b1").expectComplete()
                .verify(Duration.ofSeconds(30));
            StepVerifier.create(this.counters.fluxFallback("b1")).expectNext("fallback", "b1").expectComplete()
                .verify(Duration.ofSeconds(30));
            assertThat(this.counters.futureFallback("b1").toCompletableFuture().get(30, TimeUnit.SECONDS))
                .isEqualTo("fallback b1");
            assertThat(busy.isHeld()).isTrue();
        }
        assertThat(this.counters.bodyCalls()).hasValue(0);
        // Free again, each kind runs its body.
        StepVerifier.create(this.counters.monoSkip("b1")).expectNext("ran").expectComplete()
            .verify(Duration.ofSeconds(30));
        StepVerifier.create(this.counters.fluxFallback("b1")).expectNext("ran").expectComplete()
            .verify(Duration.ofSeconds(30));
        assertThat(this.counters.futureSkip("b1").get(30, TimeUnit.SECONDS)).isEqualTo("ran");
        assertThat(this.counters.bodyCalls()).hasValue(3);
    }

    @Test
    void lostLeaseErrorsThePublisher() {
        StepVerifier.create(this.counters.outliveLease("o1")).expectError(LockLostException.class)
            .verify(Duration.ofSeconds(30));
        StepVerifier.create(this.counters.outliveLeaseMany("o2")).thenConsumeWhile((tick) -> true)
            .expectError(LockLostException.class)
            .verify(Duration.ofSeconds(30));
    }

    @Test
    void completableFutureHoldsTheLockUntilTheWorkCompletes() throws Exception {
        List<CompletableFuture<AsyncRun>> runs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            runs.add(CompletableFuture.supplyAsync(() -> this.asyncWork.startWork("f1"), callers)
                .thenCompose((run) -> run));
        }
        List<AsyncRun> done = new ArrayList<>();
        for (CompletableFuture<AsyncRun> run : runs) {
            done.add(run.get(60, TimeUnit.SECONDS));
        }
        assertNoOverlap(done);
        assertThat(done).allSatisfy((run) -> assertThat(run.lockedInRedis()).isTrue());
        assertThat(this.lockClient.getLock("future:f1").isLocked()).isFalse();
    }

    @Test
    void asyncMethodIsLockedAroundItsBody() throws Exception {
        List<CompletableFuture<AsyncRun>> runs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            runs.add(this.asyncWork.asyncWork("a1"));
        }
        List<AsyncRun> done = new ArrayList<>();
        for (CompletableFuture<AsyncRun> run : runs) {
            done.add(run.get(60, TimeUnit.SECONDS));
        }
        assertNoOverlap(done);
        // The lease is bound on the body's own thread: the lock advice ran inside the @Async hand-off.
        assertThat(done).allSatisfy((run) -> {
            assertThat(run.lockedInRedis()).isTrue();
            assertThat(run.leaseInLockContext()).isTrue();
            assertThat(run.thread()).isNotEqualTo(Thread.currentThread().getName());
        });
        assertThat(this.lockClient.getLock("async:a1").isLocked()).isFalse();
    }

    private static void assertNoOverlap(List<AsyncRun> runs) {
        for (int i = 0; i < runs.size(); i++) {
            for (int j = i + 1; j < runs.size(); j++) {
                assertThat(runs.get(i).interval().overlaps(runs.get(j).interval()))
                    .as("runs %d and %d overlap", i, j)
                    .isFalse();
            }
        }
    }

    private static List<Long> range(long from, long to) {
        List<Long> values = new ArrayList<>();
        for (long value = from; value <= to; value++) {
            values.add(value);
        }
        return values;
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableAsync
    static class TestApplication {

        @Bean
        CounterService counterService(ReactiveStringRedisTemplate redis) {
            return new CounterService(redis);
        }

        @Bean
        CounterController counterController(CounterService counterService) {
            return new CounterController(counterService);
        }

        @Bean(destroyMethod = "shutdown")
        ExecutorService asyncWorkExecutor() {
            return Executors.newFixedThreadPool(4);
        }

        @Bean
        AsyncWorkService asyncWorkService(RedisLockClient redisLockClient, ExecutorService asyncWorkExecutor) {
            return new AsyncWorkService(redisLockClient, asyncWorkExecutor);
        }
    }
}
