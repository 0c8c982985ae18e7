package dev.distlock.spring.aop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.LockTemplate;
import dev.distlock.core.RedisLockClient;
import dev.distlock.spring.annotation.LockContext;
import dev.distlock.spring.aop.LockedServices.FutureService;
import dev.distlock.spring.aop.LockedServices.InnerService;
import dev.distlock.spring.aop.LockedServices.Interval;
import dev.distlock.spring.aop.LockedServices.KeyNames;
import dev.distlock.spring.aop.LockedServices.LedgerService;
import dev.distlock.spring.aop.LockedServices.Nested;
import dev.distlock.spring.aop.LockedServices.Order;
import dev.distlock.spring.aop.LockedServices.OrderService;
import dev.distlock.spring.aop.LockedServices.OuterLedgerService;
import dev.distlock.spring.aop.LockedServices.OuterService;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** {@code @DistributedLock} on real services in a Spring Boot application, against a real redis-server. */
@ExtendWith(RedisForSpring.class)
@SpringBootTest(classes = DistributedLockAnnotationTests.TestApplication.class,
        properties = { "test.lock.short-wait=150ms", "distributed-lock.wait-time=5s" })
@DirtiesContext
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@SuppressWarnings("try") // leases held open only to keep a lock busy
class DistributedLockAnnotationTests {

    @RegisterExtension
    static final TestThreads executor = new TestThreads(4);

    @Autowired
    private OrderService orders;

    @Autowired
    private OuterService outer;

    @Autowired
    private LedgerService ledger;

    @Autowired
    private OuterLedgerService outerLedger;

    @Autowired
    private FutureService futures;

    @Autowired
    private LockTemplate lockTemplate;

    @Autowired
    private RedisLockClient lockClient;

    @Autowired
    private JdbcTemplate jdbc;

    @DynamicPropertySource
    static void redisProperties(DynamicPropertyRegistry registry) {
        RedisForSpring.register(registry);
    }

    @BeforeEach
    void reset() {
        this.orders.bodyCalls().set(0);
        this.ledger.lockedAfterCommit().clear();
        this.jdbc.execute("create table if not exists ledger (account varchar(64), seq int)");
    }

    @Test
    void servicesAreProxied() {
        assertThat(AopUtils.isAopProxy(this.orders)).isTrue();
        assertThat(AopUtils.isAopProxy(this.ledger)).isTrue();
    }

    @Test
    void concurrentCallersWithTheSameKeySerialize() throws Exception {
        List<Future<Interval>> calls = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            calls.add(executor.submit(() -> this.orders.process("same-order", Duration.ofMillis(80))));
        }
        List<Interval> intervals = new ArrayList<>();
        for (Future<Interval> call : calls) {
            intervals.add(call.get(20, TimeUnit.SECONDS));
        }
        for (int i = 0; i < intervals.size(); i++) {
            for (int j = i + 1; j < intervals.size(); j++) {
                assertThat(intervals.get(i).overlaps(intervals.get(j)))
                    .as("sections %s and %s overlap", intervals.get(i), intervals.get(j))
                    .isFalse();
            }
        }
    }

    @Test
    void callersWithDifferentKeysRunInParallel() throws Exception {
        // Both calls must be inside their locked sections at the same time to pass the barrier.
        CyclicBarrier barrier = new CyclicBarrier(2);
        Future<String> first = executor.submit(() -> this.orders.meet("a", barrier));
        Future<String> second = executor.submit(() -> this.orders.meet("b", barrier));
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("a");
        assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("b");
    }

    @Test
    void busyLockThrowsNamingTheLockAndTheWait() {
        try (LockLease held = this.lockTemplate.acquire("busy:t1")) {
            assertThatExceptionOfType(LockNotAcquiredException.class)
                .isThrownBy(() -> executor.call(() -> this.orders.throwing("t1")))
                .satisfies((ex) -> {
                    assertThat(ex.lockName()).isEqualTo("busy:t1");
                    assertThat(ex.waitTime()).isZero();
                    assertThat(ex.getMessage()).contains("busy:t1").contains("within 0ms");
                });
        }
        assertThat(this.orders.bodyCalls()).hasValue(0);
        assertThat(executor.call(() -> this.orders.throwing("t1"))).isEqualTo("ran");
    }

    @Test
    void busyLockSkipsWithAnEmptyResult() throws Exception {
        try (LockLease held = this.lockTemplate.acquire("busy:s1")) {
            assertThat(executor.call(() -> this.orders.skipping("s1"))).isNull();
            assertThat(executor.call(() -> this.orders.skippingOptional("s1"))).isEqualTo(Optional.empty());
            assertThat(executor.call(() -> {
                this.orders.skippingVoid("s1");
                return "returned";
            })).isEqualTo("returned");
        }
        assertThat(this.orders.bodyCalls()).hasValue(0);
        assertThat(executor.call(() -> this.orders.skippingOptional("s1"))).contains("ran");
    }

    @Test
    void busyLockCallsTheFallback() throws Exception {
        try (LockLease held = this.lockTemplate.acquire("busy:f1")) {
            assertThat(executor.call(() -> this.orders.withFallback("f1")))
                .isEqualTo("fallback for f1 (busy:f1, waited PT0S)");
            assertThat(executor.call(() -> this.orders.withPlainFallback("f1"))).isEqualTo(-1);
        }
        assertThat(this.orders.bodyCalls()).hasValue(0);
        assertThat(executor.call(() -> this.orders.withFallback("f1"))).isEqualTo("ran");
    }

    @Test
    void waitTimePlaceholderIsResolved() {
        try (LockLease held = this.lockTemplate.acquire("busy:p1")) {
            assertThatExceptionOfType(LockNotAcquiredException.class)
                .isThrownBy(() -> executor.call(() -> this.orders.placeholderWait("p1")))
                .satisfies((ex) -> assertThat(ex.waitTime()).isEqualTo(Duration.ofMillis(150)));
        }
    }

    @Test
    void nestedCallWithTheSameKeyReenters() throws Exception {
        Nested nested = executor.call(() -> this.outer.outer("n1"));
        assertThat(nested.innerName()).isEqualTo("nested:n1");
        assertThat(nested.innerToken()).isEqualTo(nested.outerToken());
        assertThat(nested.outerLeaseRestored()).isTrue();
        assertThat(this.lockClient.getLock("nested:n1").isLocked()).isFalse();
    }

    @Test
    void methodSeesItsLeaseThroughLockContext() throws Exception {
        assertThat(LockContext.currentLease()).isEmpty();
        assertThat(this.orders.leaseIsHeldInside("c1")).isTrue();
        assertThat(LockContext.currentLease()).isEmpty();
    }

    @Test
    void lockNamesComeFromNameKeyBeansRootAndComposedAnnotations() {
        assertThat(this.orders.beanAndRootKey("42"))
            .isEqualTo("LockedServices.OrderService.beanAndRootKey:tenant-7:beanAndRootKey:42");
        assertThat(this.orders.composed("42")).isEqualTo("composed:42");
        assertThat(this.orders.nameOnly()).isEqualTo("fixed-name");
    }

    @Test
    void keyWithoutNameIsQualifiedByClassAndMethodSoEqualKeysOfTwoMethodsDiffer() {
        assertThat(this.orders.keyOnly()).isEqualTo("LockedServices.OrderService.keyOnly:fixed");
        assertThat(this.orders.otherKeyOnly()).isEqualTo("LockedServices.OrderService.otherKeyOnly:fixed");
    }

    @Test
    void nullOrBlankKeyFailsNamingTheExpressionBeforeAnyRedisCall() {
        Map<String, Long> before = lockCommandCalls();
        assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> this.orders.byOrder(new Order(null)))
            .withMessageContaining("'#order.id'")
            .withMessageContaining("evaluated to null")
            .withMessageContaining("OrderService.byOrder(Order)");
        assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> this.orders.byIndex("  "))
            .withMessageContaining("'#p0'")
            .withMessageContaining("blank");
        assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> this.orders.byOrder(null))
            .withMessageContaining("'#order.id'")
            .withMessageContaining("could not be evaluated");
        assertThat(this.orders.bodyCalls()).hasValue(0);
        assertThat(lockCommandCalls()).isEqualTo(before);
    }

    @Test
    void lockIsReleasedOnlyAfterTheTransactionCommits() throws Exception {
        // Each caller pauses 300 ms before its commit. Were the lock released before the commit, the second caller
        // would enter during that pause and see no committed row.
        Callable<Integer> append = () -> this.ledger.append("acct-1", Duration.ofMillis(300));
        Future<Integer> first = executor.submit(append);
        Future<Integer> second = executor.submit(append);
        List<Integer> seen = List.of(first.get(20, TimeUnit.SECONDS), second.get(20, TimeUnit.SECONDS));
        assertThat(seen).containsExactlyInAnyOrder(0, 1);
        assertThat(this.ledger.lockedAfterCommit()).containsExactly(true, true);
        assertThat(this.jdbc.queryForList("select seq from ledger where account = 'acct-1' order by seq",
                Integer.class))
            .containsExactly(1, 2);
        assertThat(this.lockClient.getLock("ledger:acct-1").isLocked()).isFalse();
    }

    @Test
    void lockJoiningAnOuterTransactionIsHeldUntilTheOuterCommit() throws Exception {
        // The locked method joins its caller's transaction (REQUIRED), so its rows commit with the caller. Were the
        // lock released when the method returned, the second caller would enter during the first one's 300 ms pause
        // before the outer commit and see no committed row.
        Callable<Integer> append = () -> this.outerLedger.appendInOuterTransaction("acct-outer",
                Duration.ofMillis(300));
        Future<Integer> first = executor.submit(append);
        Future<Integer> second = executor.submit(append);
        List<Integer> seen = List.of(first.get(20, TimeUnit.SECONDS), second.get(20, TimeUnit.SECONDS));
        assertThat(seen).containsExactlyInAnyOrder(0, 1);
        assertThat(this.outerLedger.lockedAtOuterCommit()).containsExactly(true, true, true, true);
        assertThat(this.jdbc.queryForList("select seq from ledger where account = 'acct-outer' order by seq",
                Integer.class))
            .containsExactly(1, 2);
        assertThat(this.lockClient.getLock("ledger:acct-outer").isLocked()).isFalse();
    }

    @Test
    void leaseLostBeforeTheOuterCommitRollsTheOuterTransactionBack() {
        assertThatExceptionOfType(LockLostException.class)
            .isThrownBy(() -> this.outerLedger.appendThenOutliveTheLease("acct-lost"))
            .withMessageContaining("ledger:acct-lost")
            .withMessageContaining("rolled back");
        assertThat(this.jdbc.queryForObject("select count(*) from ledger where account = 'acct-lost'",
                Integer.class))
            .isZero();
        assertThat(this.lockClient.getLock("ledger:acct-lost").isLocked()).isFalse();
    }

    @Test
    void completingALockedFutureDoesNotWaitForTheRelease() throws Exception {
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletableFuture<String> result = this.futures.holdUntil("paused", work);
        assertThat(this.lockClient.getLock("future-release:paused").isLocked()).isTrue();
        withRedis((redis) -> {
            // Scripts wait while writes are paused: the release cannot be answered before the pause ends.
            redis.dispatch(CommandType.CLIENT, new StatusOutput<>(StringCodec.UTF8),
                    new CommandArgs<>(StringCodec.UTF8).add("PAUSE").add(5_000).add("WRITE"));
            try {
                work.complete("done");
                assertThat(result).as("completed once the release is answered, not on the completing thread")
                    .isNotDone();
            }
            finally {
                redis.dispatch(CommandType.CLIENT, new StatusOutput<>(StringCodec.UTF8),
                        new CommandArgs<>(StringCodec.UTF8).add("UNPAUSE"));
            }
        });
        assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("done");
        assertThat(this.lockClient.getLock("future-release:paused").isLocked()).isFalse();
    }

    @Test
    void aLockedFutureWhoseLeaseWasLostCompletesWithLockLostException() {
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletableFuture<String> result = this.futures.holdUntil("lost", work);
        withRedis((redis) -> assertThat(redis.del("lock:{future-release:lost}")).isOne());
        work.complete("done");
        assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> result.get(10, TimeUnit.SECONDS))
            .withCauseInstanceOf(LockLostException.class);
    }

    private static void withRedis(Consumer<RedisCommands<String, String>> body) {
        RedisClient client = RedisClient.create(RedisForSpring.redis.uri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            body.accept(connection.sync());
        }
        finally {
            client.shutdown();
        }
    }

    /** Calls per command that a lock attempt would send (scripts, plain key commands), from INFO commandstats. */
    private static Map<String, Long> lockCommandCalls() {
        RedisClient client = RedisClient.create(RedisForSpring.redis.uri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return connection.sync()
                .info("commandstats")
                .lines()
                .filter((line) -> line.startsWith("cmdstat_"))
                .filter((line) -> !line.startsWith("cmdstat_info:") && !line.startsWith("cmdstat_hello:")
                        && !line.startsWith("cmdstat_client|"))
                .collect(Collectors.toMap((line) -> line.substring(0, line.indexOf(':')),
                        (line) -> Long.parseLong(line.replaceAll(".*calls=(\\d+),.*", "$1"))));
        }
        finally {
            client.shutdown();
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {

        @Bean
        KeyNames keyNames() {
            return new KeyNames();
        }

        @Bean
        FutureService futureService() {
            return new FutureService();
        }

        @Bean
        OrderService orderService() {
            return new OrderService();
        }

        @Bean
        InnerService innerService() {
            return new InnerService();
        }

        @Bean
        OuterService outerService(InnerService innerService) {
            return new OuterService(innerService);
        }

        @Bean
        LedgerService ledgerService(JdbcTemplate jdbcTemplate, RedisLockClient redisLockClient) {
            return new LedgerService(jdbcTemplate, redisLockClient);
        }

        @Bean
        OuterLedgerService outerLedgerService(LedgerService ledgerService, RedisLockClient redisLockClient) {
            return new OuterLedgerService(ledgerService, redisLockClient);
        }
    }
}
