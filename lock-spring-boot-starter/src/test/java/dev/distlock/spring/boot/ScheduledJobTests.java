package dev.distlock.spring.boot;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import dev.distlock.core.LockInfo;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.RedisLockClient;
import dev.distlock.spring.boot.observation.DistributedLockMetricsAutoConfiguration;
import dev.distlock.testsupport.RedisExtension;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @DistributedLock} on {@code @Scheduled} methods: skip at once when the job is locked, keep the lock for
 * {@code holdAtLeast} after a short run. The tests call the jobs on their own threads, as a scheduler would.
 */
@ExtendWith(OutputCaptureExtension.class)
@SuppressWarnings("try") // leases held open only to keep a lock busy
class ScheduledJobTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    private final ApplicationContextRunner contextRunner = LockContextRunners.withRedis(redis.host(), redis.port())
        .withConfiguration(AutoConfigurations.of(DistributedLockMetricsAutoConfiguration.class))
        .withBean(SimpleMeterRegistry.class)
        .withBean(ScheduledJobs.class)
        .withPropertyValues("distributed-lock.lease-time=1s");

    @Test
    void aScheduledRunThatFindsTheJobLockedIsSkippedWithoutWaiting(CapturedOutput output) {
        this.contextRunner.run((context) -> {
            ScheduledJobs jobs = context.getBean(ScheduledJobs.class);
            RedisLockClient client = context.getBean(RedisLockClient.class);
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            try (LockLease held = client.getLock("report").acquire(Duration.ZERO)) {
                for (int i = 0; i < 3; i++) {
                    long started = System.nanoTime();
                    CompletableFuture<Void> run = CompletableFuture.runAsync(jobs::report);
                    // the template's default wait is 5s: a skip well before it did not wait
                    assertThat(run).succeedsWithin(Duration.ofSeconds(10));
                    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(4));
                }
            }
            assertThat(jobs.runs()).isEqualTo(0);
            assertThat(registry.get("distlock.scheduled.skipped").tag("name", "report").counter().count())
                .isEqualTo(3.0);
            String skipped = "ScheduledJobs.report(): lock 'report' is held by instance "
                    + client.instanceId();
            assertThat(output.getOut().lines().filter((line) -> line.contains(skipped))).singleElement()
                .asString()
                .contains("INFO");
        });
    }

    @Test
    void explicitAttributesWinOverTheScheduledDefaults() {
        this.contextRunner.run((context) -> {
            ScheduledJobs jobs = context.getBean(ScheduledJobs.class);
            try (LockLease held = context.getBean(RedisLockClient.class).getLock("strict").acquire(Duration.ZERO)) {
                CompletableFuture<Void> run = CompletableFuture.runAsync(jobs::strict);
                assertThat(run).failsWithin(Duration.ofSeconds(10))
                    .withThrowableOfType(Exception.class)
                    .havingRootCause()
                    .isInstanceOf(LockNotAcquiredException.class);
            }
            assertThat(jobs.runs()).isEqualTo(0);
        });
    }

    @Test
    void holdAtLeastKeepsTheLockAfterAShortRun() {
        this.contextRunner.run((context) -> {
            ScheduledJobs jobs = context.getBean(ScheduledJobs.class);
            RedisLockClient client = context.getBean(RedisLockClient.class);
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            long started = System.nanoTime();
            jobs.brief();
            LockInfo kept = client.inspect("brief");
            assertThat(kept.held()).isTrue();
            assertThat(kept.ownerInstanceId()).isEqualTo(client.instanceId());
            // this thread ran it and would re-enter its hold: it is skipped like any other run
            jobs.brief();
            assertThat(jobs.runs()).isEqualTo(1);
            assertThat(registry.get("distlock.scheduled.skipped").tag("name", "brief").counter().count())
                .isEqualTo(1.0);
            awaitTrue(() -> !client.getLock("brief").isLocked(), Duration.ofSeconds(10));
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(1400));
            assertThat(client.activeLeaseCount()).isZero();
            jobs.brief();
            assertThat(jobs.runs()).isEqualTo(2);
        });
    }

    @Test
    void aRunLongerThanHoldAtLeastReleasesWhenItReturns() {
        this.contextRunner.run((context) -> {
            ScheduledJobs jobs = context.getBean(ScheduledJobs.class);
            jobs.work(Duration.ofMillis(300));
            jobs.longer();
            assertThat(context.getBean(RedisLockClient.class).getLock("long").isLocked()).isFalse();
        });
    }

    @Test
    void aLeaseLostDuringTheMinimumHoldIsReported() {
        this.contextRunner.run((context) -> {
            ScheduledJobs jobs = context.getBean(ScheduledJobs.class);
            RedisLockClient client = context.getBean(RedisLockClient.class);
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            jobs.kept();
            assertThat(jobs.runs()).isEqualTo(1);
            assertThat(client.getLock("kept").forceUnlock()).isTrue();
            // the watchdog renews every third of the 1s lease and is refused
            awaitTrue(() -> registry.find("distlock.lease.lost").tag("name", "kept").counter() != null,
                    Duration.ofSeconds(10));
            awaitTrue(() -> client.activeLeaseCount() == 0, Duration.ofSeconds(10));
        });
    }

    private static void awaitTrue(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waited %s", timeout).isNegative();
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }
}
