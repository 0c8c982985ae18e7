package dev.distlock.spring.boot;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import dev.distlock.spring.annotation.DistributedLock;
import dev.distlock.spring.boot.observation.DistributedLockMetricsAutoConfiguration;
import dev.distlock.testsupport.RedisExtension;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scheduled-job recipe end to end: the same {@code @Scheduled @DistributedLock} job in three applications (each
 * with its own lock client) on one redis-server, for many periods. Every period runs exactly once, and no two runs
 * overlap.
 *
 * <p>The schedulers fire on wall-clock ticks, as cron schedules do in production, each one behind the previous by
 * {@value #SKEW_MS} ms, as clocks that are a little apart: without a minimum hold the lock is free again when a late
 * instance fires (the run is short), and that instance runs the period a second time. The minimum hold leaves margin
 * on both sides for a loaded test machine: the latest instance fires {@value #HOLD_MS} - 2 x {@value #SKEW_MS} ms
 * before the hold ends, and the hold ends {@value #PERIOD_MS} - {@value #HOLD_MS} ms before the next tick.
 */
class ScheduledJobClusterTests {

    private static final long PERIOD_MS = 400;

    private static final long HOLD_MS = 250;

    private static final long SKEW_MS = 60;

    private static final int PERIODS = 14;

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    @Test
    void everyPeriodRunsExactlyOnceOnThreeInstancesAndRunsNeverOverlap() throws InterruptedException {
        RunLog log = new RunLog();
        List<ConfigurableApplicationContext> apps = new ArrayList<>();
        long first;
        try {
            for (int i = 0; i < 3; i++) {
                apps.add(start("app-" + i, i * SKEW_MS, log));
            }
            // every application schedules from the tick after its start: count from two ticks after the last start
            first = Math.floorDiv(System.currentTimeMillis(), PERIOD_MS) + 2;
            long end = (first + PERIODS + 1) * PERIOD_MS;
            TimeUnit.MILLISECONDS.sleep(Math.max(0, end - System.currentTimeMillis()));
        }
        finally {
            apps.forEach(ConfigurableApplicationContext::close);
        }
        Map<Long, List<Run>> byPeriod = log.runs.stream()
            .collect(Collectors.groupingBy((run) -> Math.floorDiv(run.startedAtMillis(), PERIOD_MS)));
        for (long period = first; period < first + PERIODS; period++) {
            assertThat(byPeriod.getOrDefault(period, List.of())).as("runs of period %d (all: %s)", period, log.runs)
                .hasSize(1);
        }
        List<Run> inOrder = log.runs.stream().sorted(Comparator.comparingLong(Run::startedAtNanos)).toList();
        for (int i = 1; i < inOrder.size(); i++) {
            assertThat(inOrder.get(i).startedAtNanos()).as("run %s starts after %s ended", inOrder.get(i),
                    inOrder.get(i - 1))
                .isGreaterThanOrEqualTo(inOrder.get(i - 1).endedAtNanos());
        }
        assertThat(log.mostAtOnce).hasValue(1);
        // the other two instances fired too, and were skipped: the exclusion was tested, not a lone scheduler
        assertThat(log.skipped.get()).isGreaterThanOrEqualTo(PERIODS);
    }

    private static ConfigurableApplicationContext start(String instance, long skewMs, RunLog log) {
        return new SpringApplicationBuilder(JobApplication.class).web(WebApplicationType.NONE)
            .properties("spring.main.banner-mode=off", "spring.data.redis.host=" + redis.host(),
                    "spring.data.redis.port=" + redis.port(), "distributed-lock.instance-id=" + instance,
                    "job.instance=" + instance, "job.skew-ms=" + skewMs)
            .initializers((context) -> context.getBeanFactory().registerSingleton("runLog", log))
            .run();
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    @Import(BootLine.DataRedis.class)
    @ImportAutoConfiguration({ DistributedLockAutoConfiguration.class,
            DistributedLockMetricsAutoConfiguration.class })
    static class JobApplication {

        @Bean
        ReportJob reportJob(RunLog runLog, @Value("${job.instance}") String instance) {
            return new ReportJob(runLog, instance);
        }

        @Bean
        SimpleMeterRegistry meterRegistry(RunLog runLog) {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            runLog.registries.add(registry);
            return registry;
        }

        @Bean
        AlignedScheduler taskScheduler(@Value("${job.skew-ms}") long skewMs) {
            return new AlignedScheduler(skewMs);
        }
    }

    /** The job, as a user writes it. */
    public static class ReportJob {

        private final RunLog log;

        private final String instance;

        ReportJob(RunLog log, String instance) {
            this.log = log;
            this.instance = instance;
        }

        @Scheduled(fixedRate = PERIOD_MS)
        @DistributedLock(name = "cluster-report", holdAtLeast = HOLD_MS + "ms")
        public void report() throws InterruptedException {
            this.log.run(this.instance);
        }
    }

    /** Every run of every instance, and the most runs in progress at once. */
    static final class RunLog {

        final List<Run> runs = new CopyOnWriteArrayList<>();

        final AtomicInteger mostAtOnce = new AtomicInteger();

        final List<MeterRegistry> registries = new CopyOnWriteArrayList<>();

        private final AtomicInteger inProgress = new AtomicInteger();

        final AtomicInteger skipped = new AtomicInteger();

        void run(String instance) throws InterruptedException {
            long startedAtMillis = System.currentTimeMillis();
            long startedAtNanos = System.nanoTime();
            this.mostAtOnce.accumulateAndGet(this.inProgress.incrementAndGet(), Math::max);
            try {
                TimeUnit.MILLISECONDS.sleep(20);
            }
            finally {
                this.inProgress.decrementAndGet();
                this.runs.add(new Run(instance, startedAtMillis, startedAtNanos, System.nanoTime()));
                this.skipped.set((int) this.registries.stream()
                    .mapToDouble((registry) -> registry.find("distlock.scheduled.skipped")
                        .counters()
                        .stream()
                        .mapToDouble(Counter::count)
                        .sum())
                    .sum());
            }
        }
    }

    record Run(String instance, long startedAtMillis, long startedAtNanos, long endedAtNanos) {
    }

    /** Fires fixed-rate tasks a fixed skew after the wall-clock multiples of their period. */
    static final class AlignedScheduler extends ThreadPoolTaskScheduler {

        private final long skewMs;

        AlignedScheduler(long skewMs) {
            this.skewMs = skewMs;
        }

        @Override
        public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Instant startTime, Duration period) {
            long periodMs = period.toMillis();
            long tick = (Math.floorDiv(startTime.toEpochMilli(), periodMs) + 1) * periodMs;
            return super.scheduleAtFixedRate(task, Instant.ofEpochMilli(tick + this.skewMs), period);
        }

        @Override
        public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Duration period) {
            return scheduleAtFixedRate(task, Instant.now(), period);
        }
    }
}
