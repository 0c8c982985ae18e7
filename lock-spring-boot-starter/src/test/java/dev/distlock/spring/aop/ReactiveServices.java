package dev.distlock.spring.aop;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.distlock.core.LockLease;
import dev.distlock.core.RedisLockClient;
import dev.distlock.core.reactive.ReactiveLockTemplate;
import dev.distlock.spring.annotation.DistributedLock;
import dev.distlock.spring.annotation.LockContext;
import dev.distlock.spring.annotation.OnNotAcquired;
import dev.distlock.spring.aop.LockedServices.Interval;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.scheduling.annotation.Async;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** Annotated reactive and asynchronous services for {@link ReactiveLockingWebFluxTests}. */
final class ReactiveServices {

    private ReactiveServices() {
    }

    /** What an asynchronous body saw while it ran. */
    record AsyncRun(Interval interval, boolean lockedInRedis, boolean leaseInLockContext, String thread) {
    }

    @RestController
    public static class CounterController {

        private final CounterService counters;

        public CounterController(CounterService counters) {
            this.counters = counters;
        }

        @PostMapping("/counters/{name}")
        public Mono<Long> increment(@PathVariable String name) {
            return this.counters.increment(name);
        }
    }

    public static class CounterService {

        private final ReactiveStringRedisTemplate redis;

        private final AtomicInteger bodyCalls = new AtomicInteger();

        private final AtomicLong cancelledAt = new AtomicLong();

        private final List<Boolean> lockedPerElement = new CopyOnWriteArrayList<>();

        public CounterService(ReactiveStringRedisTemplate redis) {
            this.redis = redis;
        }

        public AtomicInteger bodyCalls() {
            return this.bodyCalls;
        }

        public AtomicLong cancelledAt() {
            return this.cancelledAt;
        }

        public List<Boolean> lockedPerElement() {
            return this.lockedPerElement;
        }

        /** Read, pause, write: without the lock, concurrent calls lose increments. */
        @DistributedLock(name = "counter", key = "#name", waitTime = "60s")
        public Mono<Long> increment(String name) {
            String key = "counter:" + name;
            return this.redis.opsForValue()
                .get(key)
                .map(Long::parseLong)
                .defaultIfEmpty(0L)
                .delayElement(Duration.ofMillis(5))
                .flatMap((value) -> this.redis.opsForValue().set(key, String.valueOf(value + 1)).thenReturn(value + 1));
        }

        /** Holds until cancelled. */
        @DistributedLock(name = "hold", key = "#name")
        public Mono<String> holdUntilCancelled(String name) {
            return Mono.<String>never().doOnCancel(() -> this.cancelledAt.set(System.nanoTime()));
        }

        /** Emits {@code count} elements 50 ms apart, recording for each whether the lock key exists. */
        @DistributedLock(name = "ticks", key = "#name")
        public Flux<Long> ticks(String name, int count) {
            return Flux.range(0, count)
                .delayElements(Duration.ofMillis(50))
                .concatMap((tick) -> this.redis.hasKey("lock:{ticks:" + name + "}")
                    .doOnNext(this.lockedPerElement::add)
                    .thenReturn((long) tick));
        }

        /** Its lease: from the Reactor Context and from LockContext at assembly; equal when both are the lease. */
        @DistributedLock(name = "lease", key = "#name")
        public Mono<Boolean> leaseSeenInContext(String name) {
            LockLease atAssembly = LockContext.currentLease().orElseThrow();
            return ReactiveLockTemplate.currentLease().map((lease) -> lease == atAssembly && lease.isHeld());
        }

        @DistributedLock(name = "busy", key = "#name", waitTime = "0", onNotAcquired = OnNotAcquired.SKIP)
        public Mono<String> monoSkip(String name) {
            this.bodyCalls.incrementAndGet();
            return Mono.just("ran");
        }

        @DistributedLock(name = "busy", key = "#name", waitTime = "0", onNotAcquired = OnNotAcquired.SKIP)
        public Flux<String> fluxSkip(String name) {
            this.bodyCalls.incrementAndGet();
            return Flux.just("ran");
        }

        @DistributedLock(name = "busy", key = "#name", waitTime = "0", onNotAcquired = OnNotAcquired.SKIP)
        public CompletableFuture<String> futureSkip(String name) {
            this.bodyCalls.incrementAndGet();
            return CompletableFuture.completedFuture("ran");
        }

        @DistributedLock(name = "busy", key = "#name", waitTime = "0", onNotAcquired = OnNotAcquired.FALLBACK,
                fallback = "monoFallbackFor")
        public Mono<String> monoFallback(String name) {
            this.bodyCalls.incrementAndGet();
            return Mono.just("ran");
        }

        Mono<String> monoFallbackFor(String name) {
            return Mono.just("fallback " + name);
        }

        @DistributedLock(name = "busy", key = "#name", waitTime = "0", onNotAcquired = OnNotAcquired.FALLBACK,
                fallback = "fluxFallbackFor")
        public Flux<String> fluxFallback(String name) {
            this.bodyCalls.incrementAndGet();
            return Flux.just("ran");
        }

        Flux<String> fluxFallbackFor(String name) {
            return Flux.just("fallback", name);
        }

        @DistributedLock(name = "busy", key = "#name", waitTime = "0", onNotAcquired = OnNotAcquired.FALLBACK,
                fallback = "futureFallbackFor")
        public CompletionStage<String> futureFallback(String name) {
            this.bodyCalls.incrementAndGet();
            return CompletableFuture.completedFuture("ran");
        }

        CompletionStage<String> futureFallbackFor(String name) {
            return CompletableFuture.completedFuture("fallback " + name);
        }

        /** Locked and immediate: its grant is what a cancel races. */
        @DistributedLock(name = "grant", key = "#name", waitTime = "10s")
        public Mono<String> grantedAtOnce(String name) {
            return Mono.just("ran");
        }

        /** Locked and immediate, two elements. */
        @DistributedLock(name = "grant", key = "#name", waitTime = "10s")
        public Flux<String> grantedAtOnceMany(String name) {
            return Flux.just("ran", "twice");
        }

        /** Outlives its 200 ms fixed lease. */
        @DistributedLock(name = "outlive", key = "#name", leaseTime = "200ms")
        public Mono<String> outliveLease(String name) {
            return Mono.delay(Duration.ofMillis(700)).thenReturn("late");
        }

        /** Outlives its 200 ms fixed lease while emitting. */
        @DistributedLock(name = "outlive-flux", key = "#name", leaseTime = "200ms")
        public Flux<Long> outliveLeaseMany(String name) {
            return Flux.interval(Duration.ofMillis(100)).take(7);
        }
    }

    /** CompletionStage methods, with and without {@code @Async}. */
    public static class AsyncWorkService {

        private final RedisLockClient lockClient;

        private final Executor executor;

        public AsyncWorkService(RedisLockClient lockClient, Executor executor) {
            this.lockClient = lockClient;
            this.executor = executor;
        }

        /** The work runs on another executor after the method returned; the lock must cover it. */
        @DistributedLock(name = "future", key = "#name", waitTime = "30s")
        public CompletableFuture<AsyncRun> startWork(String name) {
            return CompletableFuture.supplyAsync(() -> body("future:" + name), this.executor);
        }

        /** With @Async the lock must be taken around the asynchronous body, on its thread. */
        @Async
        @DistributedLock(name = "async", key = "#name", waitTime = "30s")
        public CompletableFuture<AsyncRun> asyncWork(String name) {
            return CompletableFuture.completedFuture(body("async:" + name));
        }

        private AsyncRun body(String lockName) {
            long start = System.nanoTime();
            boolean locked = this.lockClient.getLock(lockName).isLocked();
            boolean inContext = LockContext.currentLease().map(LockLease::isHeld).orElse(false);
            try {
                Thread.sleep(150);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            return new AsyncRun(new Interval(start, System.nanoTime()), locked, inContext,
                    Thread.currentThread().getName());
        }
    }
}
