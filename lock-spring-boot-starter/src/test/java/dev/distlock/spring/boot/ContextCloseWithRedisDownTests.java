package dev.distlock.spring.boot;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import dev.distlock.spring.annotation.DistributedLock;
import dev.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application whose Redis stops (or freezes) before its context closes, as in a test that stops its Redis in
 * {@code @AfterAll}, while a {@code @Scheduled} job holds its lock and another waits for it: the context closes within
 * the operation timeout and a margin, and the scheduler's threads end, so the JVM can exit.
 */
class ContextCloseWithRedisDownTests {

    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(1);

    /** Generous for a loaded 2-core machine, yet far below the waiting job's wait and Lettuce's 60 s timeout. */
    private static final Duration BOUND = OPERATION_TIMEOUT.plusSeconds(5);

    private RedisServer server;

    @BeforeEach
    void startRedis() {
        this.server = RedisServer.start();
    }

    @AfterEach
    void stopRedis() {
        if (this.server.isPaused()) {
            this.server.resume();
        }
        this.server.close();
    }

    @ParameterizedTest(name = "{0} connection, Redis {1}")
    @CsvSource({ "shared, killed", "shared, frozen", "dedicated, killed", "dedicated, frozen" })
    void theContextClosesPromptlyAndTheSchedulerThreadsEnd(String connection, String down) {
        Set<Thread> before = schedulerThreads();
        ApplicationContextRunner runner = LockContextRunners.withRedis(this.server.host(), this.server.port())
            .withConfiguration(AutoConfigurations.of(TaskSchedulingAutoConfiguration.class))
            .withUserConfiguration(Jobs.class)
            .withPropertyValues("distributed-lock.operation-timeout=" + OPERATION_TIMEOUT.toMillis() + "ms",
                    "spring.task.scheduling.pool.size=2", "spring.task.scheduling.thread-name-prefix=close-test-");
        if (connection.equals("dedicated")) {
            runner = runner.withPropertyValues("distributed-lock.redis.url=" + this.server.uri());
        }
        runner.run((context) -> {
            Jobs jobs = context.getBean(Jobs.class);
            await().atMost(Duration.ofSeconds(30)).until(() -> jobs.runs.get() >= 2 && jobs.waits.get() >= 1);
            if (down.equals("killed")) {
                this.server.kill9();
            }
            else {
                this.server.pause();
            }
            long start = System.nanoTime();
            context.close();
            Duration closing = Duration.ofNanos(System.nanoTime() - start);
            System.out.println("context close with a " + connection + " connection and Redis " + down + " took "
                    + closing.toMillis() + " ms");
            assertThat(closing).isLessThan(BOUND);
            await().atMost(BOUND).until(() -> newThreads(before).isEmpty());
        });
    }

    private static Set<Thread> schedulerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
            .filter((thread) -> (thread.getName().startsWith("close-test-") || thread.getName().startsWith("distlock-"))
                    && thread.isAlive())
            .collect(Collectors.toSet());
    }

    private static List<String> newThreads(Set<Thread> before) {
        return schedulerThreads().stream().filter((thread) -> !before.contains(thread)).map(Thread::getName).toList();
    }

    /** Two jobs on one lock: one holds it for a while each run, the other waits for it. */
    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    static class Jobs {

        final AtomicInteger runs = new AtomicInteger();

        final AtomicInteger waits = new AtomicInteger();

        @Bean
        JobBean jobBean() {
            return new JobBean(this.runs, this.waits);
        }
    }

    /** The scheduled, locked methods (on their own bean: the configuration class is not proxied). */
    static class JobBean {

        private final AtomicInteger runs;

        private final AtomicInteger waits;

        JobBean(AtomicInteger runs, AtomicInteger waits) {
            this.runs = runs;
            this.waits = waits;
        }

        @Scheduled(fixedDelay = 10)
        @DistributedLock(name = "close-job")
        public void holding() throws InterruptedException {
            this.runs.incrementAndGet();
            TimeUnit.MILLISECONDS.sleep(300);
        }

        @Scheduled(fixedDelay = 10, initialDelay = 50)
        @DistributedLock(name = "close-job", waitTime = "5m")
        public void waiting() {
            this.waits.incrementAndGet();
        }
    }
}
