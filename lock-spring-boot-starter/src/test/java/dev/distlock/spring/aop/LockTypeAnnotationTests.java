package dev.distlock.spring.aop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.LockTemplate;
import dev.distlock.core.RedisLockClient;
import dev.distlock.spring.aop.LockedServices.Interval;
import dev.distlock.spring.aop.TypedLockServices.Accounts;
import dev.distlock.spring.aop.TypedLockServices.Documents;
import dev.distlock.spring.aop.TypedLockServices.Inner;
import dev.distlock.spring.aop.TypedLockServices.Outer;
import dev.distlock.spring.aop.TypedLockServices.Queue;
import dev.distlock.spring.aop.TypedLockServices.Reentry;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** {@code @DistributedLock(type = ...)} and multi-key locks on real services, against a real redis-server. */
@ExtendWith(RedisForSpring.class)
@SpringBootTest(classes = LockTypeAnnotationTests.TestApplication.class,
        properties = { "distributed-lock.max-backoff=100ms" })
@DirtiesContext
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@SuppressWarnings("try") // leases held open only to keep a lock busy
class LockTypeAnnotationTests {

    @RegisterExtension
    static final TestThreads executor = new TestThreads(6);

    @Autowired
    private Documents documents;

    @Autowired
    private Outer outer;

    @Autowired
    private Queue queue;

    @Autowired
    private Accounts accounts;

    @Autowired
    private LockTemplate lockTemplate;

    @Autowired
    private RedisLockClient lockClient;

    @DynamicPropertySource
    static void redisProperties(DynamicPropertyRegistry registry) {
        RedisForSpring.register(registry);
    }

    @Test
    void readersHoldTheReadLockTogether() throws Exception {
        // Both calls must be inside their read-locked sections at the same time to pass the barrier.
        CyclicBarrier barrier = new CyclicBarrier(2);
        Future<String> first = executor.submit(() -> this.documents.readTogether("r1", barrier));
        Future<String> second = executor.submit(() -> this.documents.readTogether("r1", barrier));
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("r1");
        assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("r1");
    }

    @Test
    void writerExcludesReadersAndWriters() throws Exception {
        List<Future<Interval>> writes = new ArrayList<>();
        List<Future<Interval>> reads = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            writes.add(executor.submit(() -> this.documents.write("w1", Duration.ofMillis(150))));
            reads.add(executor.submit(() -> this.documents.read("w1", Duration.ofMillis(100))));
        }
        List<Interval> writeIntervals = results(writes);
        List<Interval> readIntervals = results(reads);
        assertThat(writeIntervals.get(0).overlaps(writeIntervals.get(1))).as("writers overlap").isFalse();
        for (Interval write : writeIntervals) {
            for (Interval read : readIntervals) {
                assertThat(write.overlaps(read)).as("writer %s overlaps reader %s", write, read).isFalse();
            }
        }
    }

    @Test
    void nestedCallsReenterEveryLockType() {
        for (Reentry reentry : List.of(this.outer.fair("f1"), this.outer.read("r1"), this.outer.write("w1"))) {
            assertThat(reentry.innerName()).isEqualTo(reentry.outerName()).startsWith("nested:");
            assertThat(reentry.innerToken()).isEqualTo(reentry.outerToken());
            assertThat(reentry.outerHeldAfter()).isTrue();
        }
        Reentry multi = this.outer.multi("m1", "m2");
        assertThat(multi.innerName()).isEqualTo(multi.outerName());
        assertThat(multi.outerHeldAfter()).isTrue();
        Reentry single = this.outer.multiThenSingle("m1", "m2");
        assertThat(single.innerName()).isEqualTo("nested:m2");
        assertThat(single.outerHeldAfter()).isTrue();
        assertThat(this.lockClient.getFairLock("nested:f1").isLocked()).isFalse();
        assertThat(this.lockClient.getLock("nested:m1").isLocked()).isFalse();
        assertThat(this.lockClient.getLock("nested:m2").isLocked()).isFalse();
    }

    @Test
    void writeLockedMethodMayCallReadLockedOne() {
        Reentry downgrade = this.outer.writeThenRead("d1");
        assertThat(downgrade.innerName()).isEqualTo("nested:d1");
        assertThat(downgrade.outerHeldAfter()).isTrue();
    }

    @Test
    void readLockedMethodCallingWriteLockedOneFailsInsteadOfDeadlocking() {
        assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> this.outer.readThenWrite("u1"));
        assertThat(this.lockClient.getReadWriteLock("nested:u1").writeLock().tryAcquire())
            .hasValueSatisfying(LockLease::close);
    }

    @Test
    void fairLockAdmitsCallersInArrivalOrder() throws Exception {
        List<Integer> order = new CopyOnWriteArrayList<>();
        List<Future<?>> callers = new ArrayList<>();
        try (LockLease held = this.lockClient.getFairLock("queue:q1").acquire(Duration.ZERO)) {
            for (int caller = 0; caller < 4; caller++) {
                int index = caller;
                callers.add(executor.submit(() -> this.queue.enter("q1", index, order)));
                awaitQueueLength("lock:{queue:q1}:queue", caller + 1);
            }
        }
        for (Future<?> caller : callers) {
            caller.get(10, TimeUnit.SECONDS);
        }
        assertThat(order).containsExactly(0, 1, 2, 3);
    }

    @Test
    void multiKeyLockHoldsEveryKeyWithOneTokenEach() {
        Map<String, Long> tokens = this.accounts.transfer("a1", "b1", () -> {
            assertThat(this.lockClient.getLock("account:a1").isLocked()).isTrue();
            assertThat(this.lockClient.getLock("account:b1").isLocked()).isTrue();
        });
        assertThat(tokens).containsOnlyKeys("account:a1", "account:b1").allSatisfy((name, token) -> assertThat(token)
            .isPositive());
        assertThat(this.lockClient.getLock("account:a1").isLocked()).isFalse();
        assertThat(this.lockClient.getLock("account:b1").isLocked()).isFalse();
    }

    @Test
    void multiKeyExpressionsMayEvaluateToCollectionsAndArrays() {
        assertThat(this.accounts.reserve(List.of("s1", "s2", "s1"))).containsOnlyKeys("sku:s1", "sku:s2");
        String unnamed = "TypedLockServices.Accounts.reserveArray:";
        assertThat(this.accounts.reserveArray(new String[] { "s3", "s4" })).containsOnlyKeys(unnamed + "s3",
                unnamed + "s4", unnamed + "warehouse");
    }

    @Test
    void multiKeyLockIsAllOrNothing() {
        try (LockLease busy = this.lockTemplate.acquire("account:b2")) {
            assertThatExceptionOfType(LockNotAcquiredException.class)
                .isThrownBy(() -> executor.call(() -> this.accounts.transferOnce("a2", "b2")));
            assertThat(this.lockClient.getLock("account:a2").isLocked()).as("partial grant released").isFalse();
        }
        assertThat(executor.call(() -> this.accounts.transferOnce("a2", "b2"))).hasSize(2);
    }

    @Test
    void overlappingKeySetsInOppositeOrderNeverDeadlock() throws Exception {
        List<Future<List<Interval>>> callers = new ArrayList<>();
        for (String[] pair : List.of(new String[] { "x", "y" }, new String[] { "y", "x" })) {
            callers.add(executor.submit(() -> {
                List<Interval> intervals = new ArrayList<>();
                for (int i = 0; i < 15; i++) {
                    intervals.add(this.accounts.transferTimed(pair[0], pair[1], Duration.ofMillis(5)));
                }
                return intervals;
            }));
        }
        List<Interval> all = new ArrayList<>();
        for (Future<List<Interval>> caller : callers) {
            all.addAll(caller.get(30, TimeUnit.SECONDS));
        }
        assertThat(all).hasSize(30);
        for (int i = 0; i < all.size(); i++) {
            for (int j = i + 1; j < all.size(); j++) {
                assertThat(all.get(i).overlaps(all.get(j))).isFalse();
            }
        }
    }

    @Test
    void nullBlankOrEmptyMultiKeysFailNamingTheExpression() {
        assertThatExceptionOfType(IllegalArgumentException.class)
            .isThrownBy(() -> this.accounts.reserve(Arrays.asList("s1", null)))
            .withMessageContaining("'#skus'")
            .withMessageContaining("element 1 is null")
            .withMessageContaining("Accounts.reserve(List)");
        assertThatExceptionOfType(IllegalArgumentException.class)
            .isThrownBy(() -> this.accounts.reserve(List.of("s1", " ")))
            .withMessageContaining("'#skus'")
            .withMessageContaining("element 1 is blank");
        assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> this.accounts.reserve(List.of()))
            .withMessageContaining("'#skus'")
            .withMessageContaining("no keys");
        assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> this.accounts.reserve(null))
            .withMessageContaining("'#skus'")
            .withMessageContaining("evaluated to null");
        assertThatExceptionOfType(IllegalArgumentException.class)
            .isThrownBy(() -> this.accounts.transfer("a3", null, () -> {
            }))
            .withMessageContaining("'#to'");
    }

    private static void awaitQueueLength(String key, long length) throws InterruptedException {
        RedisClient client = RedisClient.create(RedisForSpring.redis.uri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (connection.sync().llen(key) < length) {
                assertThat(System.nanoTime() - deadline).as("%s reaches length %d", key, length).isNegative();
                Thread.sleep(10);
            }
        }
        finally {
            client.shutdown();
        }
    }

    private static <T> List<T> results(List<Future<T>> futures) throws Exception {
        List<T> results = new ArrayList<>();
        for (Future<T> future : futures) {
            results.add(future.get(20, TimeUnit.SECONDS));
        }
        return results;
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {

        @Bean
        Documents documents() {
            return new Documents();
        }

        @Bean
        Inner inner() {
            return new Inner();
        }

        @Bean
        Outer outer(Inner inner) {
            return new Outer(inner);
        }

        @Bean
        Queue queue() {
            return new Queue();
        }

        @Bean
        Accounts accounts() {
            return new Accounts();
        }
    }
}
