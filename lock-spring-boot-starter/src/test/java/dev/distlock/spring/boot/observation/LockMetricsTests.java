package dev.distlock.spring.boot.observation;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.LockTemplate;
import dev.distlock.core.RedisLockClient;
import dev.distlock.spring.annotation.LockContext;
import dev.distlock.spring.boot.BootLine;
import dev.distlock.spring.boot.LockContextRunners;
import dev.distlock.spring.boot.LockedRunner;
import dev.distlock.spring.boot.Unchecked;
import dev.distlock.testsupport.RedisExtension;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Micrometer meters of the lock client and of {@code @DistributedLock} calls, on a real redis-server. */
@SuppressWarnings("try") // leases held open only to keep a lock busy
class LockMetricsTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    private final ApplicationContextRunner contextRunner = LockContextRunners.withRedis(redis.host(), redis.port())
        .withConfiguration(AutoConfigurations.of(DistributedLockMetricsAutoConfiguration.class))
        .withBean(LockedRunner.class);

    private final ApplicationContextRunner withRegistry = this.contextRunner.withBean(SimpleMeterRegistry.class);

    @Test
    void gaugesFollowTheLockClient() {
        this.withRegistry.run((context) -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            DoubleSupplier active = () -> registry.get("distlock.leases.active").tag("client", "redis").gauge().value();
            DoubleSupplier waiting = () -> registry.get("distlock.locks.waiting").tag("client", "redis").gauge()
                .value();
            LockTemplate template = context.getBean(LockTemplate.class);
            CompletableFuture<String> waiter;
            try (LockLease held = template.acquire("gauged")) {
                assertThat(active.getAsDouble()).isEqualTo(1.0);
                waiter = CompletableFuture.supplyAsync(() -> template.execute("gauged", Duration.ofSeconds(10),
                        (lease) -> "waited"));
                awaitValue(waiting, 1.0);
            }
            assertThat(waiter).succeedsWithin(Duration.ofSeconds(10)).isEqualTo("waited");
            awaitValue(waiting, 0.0);
            awaitValue(active, 0.0);
        });
    }

    @Test
    void acquisitionsAreTimedByDeclarationAndOutcome() {
        this.withRegistry.run((context) -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            LockedRunner runner = context.getBean(LockedRunner.class);
            runner.reentrant("k1", () -> "ran");
            runner.reentrant("k2", () -> "ran");
            runner.unnamed("k3", () -> "ran");
            try (LockLease held = context.getBean(LockTemplate.class).acquire("once:k4")) {
                CompletableFuture<String> busy = CompletableFuture
                    .supplyAsync(() -> Unchecked.call(() -> runner.once("k4", () -> "ran")));
                assertThat(busy).failsWithin(Duration.ofSeconds(5))
                    .withThrowableOfType(Exception.class)
                    .havingRootCause()
                    .isInstanceOf(LockNotAcquiredException.class);
            }
            // Upgrading a read lock to a write lock is refused: the inner acquisition fails.
            assertThatExceptionOfType(IllegalStateException.class)
                .isThrownBy(() -> runner.read("k5", () -> runner.write("k5", () -> "ran")));

            assertThat(timer(registry, "run", "acquired").count()).isEqualTo(2);
            assertThat(timer(registry, "run", "acquired").totalTime(TimeUnit.NANOSECONDS)).isPositive();
            assertThat(timer(registry, "LockedRunner.unnamed", "acquired").count()).isEqualTo(1);
            assertThat(timer(registry, "once", "not_acquired").count()).isEqualTo(1);
            assertThat(timer(registry, "rw", "acquired").count()).isEqualTo(1);
            assertThat(timer(registry, "rw", "failed").count()).isEqualTo(1);
            assertThat(registry.find("distlock.acquire").timers())
                .extracting((meter) -> meter.getId().getTag("name"))
                .as("tagged by declaration, never by the evaluated key")
                .containsOnly("run", "LockedRunner.unnamed", "once", "rw");
        });
    }

    @Test
    void lostLeasesAreCountedOncePerHold() {
        this.withRegistry
            .withPropertyValues("distributed-lock.lease-time=1s", "distributed-lock.lost-lease-policy=ignore")
            .run((context) -> {
                MeterRegistry registry = context.getBean(MeterRegistry.class);
                LockedRunner runner = context.getBean(LockedRunner.class);
                RedisLockClient client = context.getBean(RedisLockClient.class);
                runner.reentrant("lost1", () -> loseLease(client, "run:lost1"));
                awaitValue(() -> lostCount(registry), 1.0);
                runner.reentrant("lost2", () -> runner.reentrant("lost2", () -> loseLease(client, "run:lost2")));
                awaitValue(() -> lostCount(registry), 2.0);
                Thread.sleep(200);
                assertThat(lostCount(registry)).as("a re-entered hold is counted once").isEqualTo(2.0);
                assertThat(registry.get("distlock.lease.lost").tag("reason", "renewal_refused").counter().count())
                    .isEqualTo(2.0);
            });
    }

    @Test
    void lostLeaseMeterAndObservationShareOneName() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        ObservationRegistry observations = ObservationRegistry.create();
        observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
        this.contextRunner.withConfiguration(AutoConfigurations.of(DistributedLockObservationAutoConfiguration.class))
            .withBean(MeterRegistry.class, () -> meters)
            .withBean(ObservationRegistry.class, () -> observations)
            .withPropertyValues("distributed-lock.lease-time=1s", "distributed-lock.lost-lease-policy=ignore")
            .run((context) -> {
                LockedRunner runner = context.getBean(LockedRunner.class);
                runner.reentrant("shared", () -> loseLease(context.getBean(RedisLockClient.class), "run:shared"));
                awaitValue(() -> lostCount(meters), 1.0);
                awaitValue(() -> meters.find(LockObservations.LEASE_LOST).tag("lock.loss.reason", "renewal_refused")
                    .timers().size(), 1.0);
                assertThat(meters.get(LockMetrics.LEASE_LOST).tag("name", "run").counter().count()).isEqualTo(1.0);
            });
    }

    @Test
    void noMetricsWithoutAMeterRegistry() {
        this.contextRunner.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(LockMetrics.class));
    }

    @Test
    void noMetricsWithoutMicrometer() {
        this.contextRunner.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
            .run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(LockMetrics.class));
    }

    @Test
    void bootsMeterRegistryIsUsed() {
        this.contextRunner
            .withConfiguration(AutoConfigurations.of(BootLine.METRICS))
            .run((context) -> {
                assertThat(context).hasSingleBean(LockMetrics.class);
                context.getBean(LockedRunner.class).reentrant("boot", () -> "ran");
                assertThat(timer(context.getBean(MeterRegistry.class), "run", "acquired").count()).isEqualTo(1);
            });
    }

    /** Deletes the lock under its holder and waits until the holder has noticed. */
    private static String loseLease(RedisLockClient client, String name) throws InterruptedException {
        assertThat(client.getLock(name).forceUnlock()).isTrue();
        LockLease lease = LockContext.currentLease().orElseThrow();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (lease.isHeld()) {
            assertThat(System.nanoTime() - deadline).as("the loss of %s is noticed", name).isNegative();
            Thread.sleep(20);
        }
        return "lost";
    }

    private static double lostCount(MeterRegistry registry) {
        return registry.find("distlock.lease.lost").tag("name", "run").counters().stream()
            .mapToDouble((counter) -> counter.count())
            .sum();
    }

    private static Timer timer(MeterRegistry registry, String name, String outcome) {
        return registry.get("distlock.acquire").tag("name", name).tag("outcome", outcome).timer();
    }

    private static void awaitValue(DoubleSupplier gauge, double expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (gauge.getAsDouble() != expected) {
            assertThat(System.nanoTime() - deadline).as("gauge reaches %s, is %s", expected, gauge.getAsDouble())
                .isNegative();
            Thread.sleep(10);
        }
    }
}
