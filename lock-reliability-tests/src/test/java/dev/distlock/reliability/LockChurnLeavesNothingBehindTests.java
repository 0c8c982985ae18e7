package dev.distlock.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.distlock.core.RedisLock;
import dev.distlock.core.LockInterruptedException;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.RedisLockClient;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * F4 and L5: many lock/unlock cycles with short leases, mixed with interrupts of waiting threads, cancelled
 * asynchronous acquisitions and reentry; afterwards no lock key and no renewal task may be left.
 */
@DisplayName("F4 lock/unlock churn with interrupts and cancellations")
class LockChurnLeavesNothingBehindTests extends SingleServerFaultTest {

    @Test
    void noKeysAndNoRenewalsSurviveTheChurn() throws Exception {
        int cycles = Soak.count(100_000, 1_000_000);
        Duration maxTime = Soak.duration(Duration.ofSeconds(60), Duration.ofMinutes(15));
        RedisLockClient first = this.clients.lockClient(redis.uri());
        RedisLockClient second = this.clients.lockClient(redis.uri());
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            names.add("f4-" + i);
        }
        AtomicLong done = new AtomicLong();
        Map<String, AtomicLong> outcomes = new ConcurrentHashMap<>();
        Map<String, AtomicLong> unexpected = new ConcurrentHashMap<>();
        long deadline = System.nanoTime() + maxTime.toNanos();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            RedisLockClient client = (t % 2 == 0) ? first : second;
            Thread thread = new Thread(() -> {
                while (done.get() < cycles && System.nanoTime() - deadline < 0) {
                    String outcome;
                    try {
                        outcome = cycle(client, names);
                    }
                    catch (InterruptedException | LockInterruptedException ex) {
                        outcome = "interrupted";
                    }
                    catch (LockNotAcquiredException ex) {
                        outcome = "not-acquired";
                    }
                    catch (RuntimeException ex) {
                        outcome = "unexpected";
                        unexpected.computeIfAbsent(LoadLoop.pattern(LoadLoop.describe(ex)), (k) -> new AtomicLong())
                            .incrementAndGet();
                    }
                    outcomes.computeIfAbsent(outcome, (k) -> new AtomicLong()).incrementAndGet();
                    done.incrementAndGet();
                }
            }, "f4-" + t);
            threads.add(thread);
        }
        Map<String, AtomicLong> uncaught = new ConcurrentHashMap<>();
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, ex) -> uncaught
            .computeIfAbsent(LoadLoop.pattern(thread.getName() + ": " + LoadLoop.describe(ex)), (k) -> new AtomicLong())
            .incrementAndGet());
        long start = System.nanoTime();
        threads.forEach(Thread::start);
        // chaos: interrupt a random thread every few milliseconds
        while (threads.stream().anyMatch(Thread::isAlive) && System.nanoTime() - deadline < 0) {
            Thread.sleep(ThreadLocalRandom.current().nextInt(1, 6));
            threads.get(ThreadLocalRandom.current().nextInt(threads.size())).interrupt();
        }
        for (Thread thread : threads) {
            thread.join(10_000);
            assertThat(thread.isAlive()).as("%s finished", thread.getName()).isFalse();
        }
        long elapsed = System.nanoTime() - start;
        Thread.sleep(200);
        Thread.setDefaultUncaughtExceptionHandler(previous);

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(first.activeLeaseCount() + second.activeLeaseCount()).as("renewal tasks").isZero();
            assertThat(first.waitingLockCount() + second.waitingLockCount()).as("wait rooms").isZero();
            assertThat(Quiesce.leftoverLockKeys(this.raw)).as("lock keys").isEmpty();
        });
        Measured.report("F4", done.get() + " cycles in " + Measured.millis(0, elapsed) + " ("
                + (done.get() * 1_000_000_000L / elapsed) + "/s) by 8 threads on 2 clients; outcomes " + outcomes
                + "; afterwards leases=0, waiters=0, lock keys=0; uncaught exceptions on client threads: "
                + uncaught);
        assertThat(unexpected).as("unexpected exceptions").isEmpty();
        assertThat(uncaught).as("exceptions that escaped to a thread's uncaught-exception handler").isEmpty();
        assertThat(done.get()).isGreaterThanOrEqualTo(Soak.enabled() ? 100_000 : 20_000);
    }

    /** One random cycle; returns what happened. */
    private static String cycle(RedisLockClient client, List<String> names) throws InterruptedException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        RedisLock lock = client.getLock(names.get(random.nextInt(names.size())));
        int kind = random.nextInt(10);
        if (kind < 5) {
            // try once, fixed short lease or watchdog
            LockLease lease = (random.nextBoolean()) ? lock.tryAcquire().orElse(null)
                    : lock.tryAcquire(Duration.ZERO, Duration.ofMillis(random.nextInt(300, 2_000))).orElse(null);
            if (lease == null) {
                return "busy";
            }
            lease.close();
            return "acquired";
        }
        if (kind < 7) {
            // wait a little; the chaos thread may interrupt the wait
            LockLease lease = lock.tryAcquire(Duration.ofMillis(random.nextInt(1, 30))).orElse(null);
            if (lease == null) {
                return "timed-out";
            }
            lease.close();
            return "acquired-after-wait";
        }
        if (kind < 9) {
            // asynchronous acquisition cancelled at a random moment
            CompletableFuture<LockLease> future = lock.acquireAsync(Duration.ofMillis(random.nextInt(1, 30)))
                .toCompletableFuture();
            boolean interrupted = false;
            if (random.nextBoolean()) {
                try {
                    TimeUnit.MICROSECONDS.sleep(random.nextInt(0, 2_000));
                }
                catch (InterruptedException ex) {
                    // still cancel or close below: an abandoned future would keep its lease (a user's bug, not ours)
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            if (future.cancel(true)) {
                return "cancelled";
            }
            try {
                future.join().close();
                return "async-acquired";
            }
            catch (RuntimeException ex) {
                if (ex.getCause() instanceof LockNotAcquiredException) {
                    return "async-timed-out";
                }
                throw ex;
            }
        }
        // reentry to depth 3
        LockLease outer = lock.tryAcquire().orElse(null);
        if (outer == null) {
            return "busy";
        }
        try (LockLease inner = lock.acquire(Duration.ZERO); LockLease innermost = lock.acquire(Duration.ZERO)) {
            return "reentered";
        }
        finally {
            outer.close();
        }
    }
}
