package dev.distlock.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import dev.distlock.core.LostLeasePolicy;
import dev.distlock.core.RedisLockClient;
import dev.distlock.core.reactive.ReactiveLock;
import dev.distlock.core.reactive.ReactiveLockTemplate;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * F29: reactive acquisitions cancelled at the moment of their grant. Several lanes subscribe to locked sections
 * ({@link ReactiveLockTemplate#execute}, {@link ReactiveLockTemplate#executeMany}, and {@code Mono.usingWhen} over
 * {@link ReactiveLock#acquire}) on a few shared names and a multi-lock, and cancel each one after a random 0-3 ms (a
 * {@code timeout}, a disposed subscription, or a failing {@code zip} sibling): about the time an uncontended grant
 * takes on loopback, so many cancels land while the lease is on its way from the client to the section.
 *
 * <p>A watchdog lease dropped on that way has no owner left to close it and is renewed for as long as the client
 * lives; afterwards no renewal task, wait room, lock key or queue key may be left.
 */
@DisplayName("F29 reactive acquisitions cancelled as they are granted")
class ReactiveCancelledGrantsLeaveNothingBehindTests extends SingleServerFaultTest {

    private static final List<String> NAMES = List.of("f29-0", "f29-1", "f29-2", "f29-3");

    private static final int LANES = 4;

    @Test
    void cancelsRacingGrantsLeaveNoLeaseKeyOrRenewal() throws Exception {
        int attempts = Soak.count(10_000, 100_000);
        Duration maxTime = Soak.duration(Duration.ofSeconds(60), Duration.ofMinutes(10));
        RedisLockClient tested = this.clients.lockClient(redis.uri());
        ReactiveLockTemplate template = new ReactiveLockTemplate(tested, Duration.ofSeconds(10), null,
                LostLeasePolicy.FAIL);
        AtomicLong started = new AtomicLong();
        AtomicLong ran = new AtomicLong();
        Map<String, AtomicLong> outcomes = new ConcurrentHashMap<>();
        Map<String, AtomicLong> unexpected = new ConcurrentHashMap<>();
        long deadline = System.nanoTime() + maxTime.toNanos();
        List<Thread> lanes = new ArrayList<>();
        for (int l = 0; l < LANES; l++) {
            lanes.add(new Thread(() -> {
                while (started.getAndIncrement() < attempts && System.nanoTime() - deadline < 0) {
                    String outcome;
                    try {
                        outcome = cancelOnce(tested, template, ran);
                    }
                    catch (Exception | AssertionError ex) {
                        outcome = "unexpected";
                        unexpected.computeIfAbsent(LoadLoop.pattern(LoadLoop.describe(ex)), (k) -> new AtomicLong())
                            .incrementAndGet();
                    }
                    outcomes.computeIfAbsent(outcome, (k) -> new AtomicLong()).incrementAndGet();
                }
            }, "f29-lane-" + l));
        }
        long start = System.nanoTime();
        lanes.forEach(Thread::start);
        for (Thread lane : lanes) {
            lane.join(maxTime.plusSeconds(30).toMillis());
            assertThat(lane.isAlive()).as("%s finished", lane.getName()).isFalse();
        }
        long elapsed = System.nanoTime() - start;
        long total = outcomes.values().stream().mapToLong(AtomicLong::get).sum();

        // Releases sent on cancel are in flight for a round trip; a dropped watchdog lease would stay for good.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(tested.activeLeaseCount()).as(() -> "renewal tasks: " + tested.heldLeases()).isZero();
            assertThat(tested.waitingLockCount()).as("wait rooms").isZero();
            assertThat(Quiesce.leftoverLockKeys(this.raw)).as("lock keys and queues").isEmpty();
        });
        Measured.report("F29", total + " reactive acquisitions cancelled 0-3 ms after subscribing in "
                + Measured.millis(0, elapsed) + " (" + (total * 1_000_000_000L / elapsed) + "/s; " + LANES
                + " lanes on one client, " + NAMES.size() + " names and a multi-lock); sections run " + ran.get()
                + "; outcomes " + outcomes + "; afterwards leases=0, wait rooms=0, lock keys and queues=0");

        assertThat(unexpected).as("unexpected outcomes").isEmpty();
        assertThat(total).as("attempts").isGreaterThanOrEqualTo(Soak.enabled() ? 20_000 : attempts);
        assertThat(ran.get()).as("sections that ran before their cancel").isPositive();
        assertThat(outcomes.getOrDefault("cancelled", new AtomicLong()).get()).as("cancelled").isPositive();
    }

    /** One locked section cancelled at a random moment; returns how it ended. */
    private static String cancelOnce(RedisLockClient client, ReactiveLockTemplate template, AtomicLong ran)
            throws Exception {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        Flux<Integer> locked = section(client, template, ran, random);
        long cancelAfterNanos = random.nextLong(0, 3_000_000);
        switch (random.nextInt(3)) {
            case 0 -> {
                return locked.timeout(Duration.ofNanos(cancelAfterNanos)).then(Mono.just("completed"))
                    .onErrorResume(TimeoutException.class, (ex) -> Mono.just("cancelled"))
                    .block(Duration.ofSeconds(30));
            }
            case 1 -> {
                Disposable subscription = locked.subscribe();
                TimeUnit.NANOSECONDS.sleep(cancelAfterNanos);
                subscription.dispose();
                return "cancelled";
            }
            default -> {
                Mono<Object> sibling = Mono.delay(Duration.ofNanos(cancelAfterNanos))
                    .then(Mono.error(new SiblingFailed()));
                return Mono.zip(locked.then(Mono.just("completed")), sibling, (section, other) -> section)
                    .onErrorResume(SiblingFailed.class, (ex) -> Mono.just("cancelled"))
                    .block(Duration.ofSeconds(30));
            }
        }
    }

    /** A Mono or Flux section, through the template or usingWhen over the bare reactive lock. */
    private static Flux<Integer> section(RedisLockClient client, ReactiveLockTemplate template, AtomicLong ran,
            ThreadLocalRandom random) {
        String name = NAMES.get(random.nextInt(NAMES.size()));
        Duration wait = Duration.ofSeconds(10);
        return switch (random.nextInt(4)) {
            case 0 -> template.execute(name, (lease) -> Mono.fromCallable(ran::incrementAndGet).thenReturn(1)).flux();
            case 1 -> template.executeMany(name, (lease) -> Flux.range(0, 2).doOnComplete(ran::incrementAndGet));
            case 2 -> template.executeMany(client.getMultiLock(NAMES.get(0), NAMES.get(1)), wait, null,
                    (lease) -> Flux.range(0, 2).doOnComplete(ran::incrementAndGet));
            default -> Mono.usingWhen(ReactiveLock.of(client.getLock(name)).acquire(wait),
                    (lease) -> Mono.fromCallable(ran::incrementAndGet).thenReturn(1), ReactiveLock::release).flux();
        };
    }

    /** The zip sibling's failure, which cancels the section. */
    private static final class SiblingFailed extends RuntimeException {

        SiblingFailed() {
            super("sibling failed", null, false, false);
        }
    }
}
