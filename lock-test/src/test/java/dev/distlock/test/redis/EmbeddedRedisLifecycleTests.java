package dev.distlock.test.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.distlock.core.LockLease;
import dev.distlock.core.RedisLockClient;
import dev.distlock.test.app.ReservationApplication;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.MergedContextConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The embedded server outlives every bean of its context: a job that still takes locks while the context shuts down
 * finds Redis up, and the server is gone once the context is closed. (The locks run on a dedicated connection here,
 * whose client is closed when beans are destroyed; on the shared connection the starter closes it earlier, with the
 * connection factory's lifecycle stop, and a job must stop before that.)
 */
class EmbeddedRedisLifecycleTests {

    @Test
    void redisStopsOnlyAfterTheContextsBeansAreDestroyed() throws InterruptedException {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(ReservationApplication.class,
                LockingJob.class)
            .properties("distributed-lock.redis.host=redis.invalid")
            .initializers((ctx) -> new EmbeddedRedisContextCustomizer().customizeContext(ctx,
                    new MergedContextConfiguration(getClass(), null, null, null, null)))
            .run();
        EmbeddedRedis redis = context.getBean(EmbeddedRedis.class);
        LockingJob job = context.getBean(LockingJob.class);
        assertThat(redis.isRunning()).isTrue();
        for (int i = 0; i < 1000 && job.runs == 0; i++) {
            Thread.sleep(10);
        }

        context.close();

        assertThat(job.failures).isEmpty();
        assertThat(job.runs).isPositive();
        assertThat(job.redisAnsweredAtDestroy).isTrue();
        assertThat(redis.isRunning()).isFalse();
    }

    /** Takes and releases a lock in a loop on its own thread until it is destroyed, like a scheduled job. */
    static class LockingJob implements DisposableBean {

        private final RedisLockClient client;

        private final AtomicBoolean stop = new AtomicBoolean();

        private final Thread thread;

        final List<Throwable> failures = new CopyOnWriteArrayList<>();

        volatile int runs;

        volatile boolean redisAnsweredAtDestroy;

        LockingJob(RedisLockClient client) {
            this.client = client;
            this.thread = new Thread(this::work, "locking-job");
            this.thread.start();
        }

        private void work() {
            for (int i = 0; i < 100_000 && !this.stop.get(); i++) {
                try (LockLease lease = this.client.getLock("job").acquire(Duration.ofSeconds(5))) {
                    this.runs += lease.isHeld() ? 1 : 0;
                }
                catch (Throwable ex) {
                    this.failures.add(ex);
                    return;
                }
            }
        }

        @Override
        public void destroy() throws InterruptedException {
            this.stop.set(true);
            this.thread.join(30_000);
            this.redisAnsweredAtDestroy = !this.client.inspect("job").held();
        }
    }
}
