package dev.distlock.spring.boot;

import java.util.concurrent.atomic.AtomicBoolean;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.RedisLockClient;
import io.lettuce.core.cluster.RedisClusterClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Owns the lock client that runs on the application's {@link LettuceConnectionFactory} (standalone, Sentinel, or Redis
 * Cluster when the factory's native client is a {@link RedisClusterClient}) and closes it (once) before that factory
 * shuts its Lettuce client down. The factory does so in its own {@code stop()}, which on a context close runs before
 * beans are destroyed; this bean's phase is one above the factory's, so it stops first (and starts after it). If the
 * context never started, the client is closed when this bean is destroyed.
 *
 * <p>A stopped context that is started again gets a new Lettuce client from the factory, but the lock client stays
 * closed, so lock calls then fail; the restart is logged at WARN.
 */
final class SharedLockClient implements SmartLifecycle, DisposableBean {

    private static final Logger logger = LoggerFactory.getLogger(SharedLockClient.class);

    private final RedisLockClient client;

    private final int phase;

    private final AtomicBoolean closed = new AtomicBoolean();

    private volatile boolean running;

    SharedLockClient(LettuceConnectionFactory connectionFactory, LockClientOptions options, boolean requireRedis) {
        this.client = RedisLockClients.create(connectionFactory.getRequiredNativeClient(), options,
                "the application's Redis connection (spring.data.redis.*)", requireRedis);
        int factoryPhase = connectionFactory.getPhase();
        this.phase = (factoryPhase == Integer.MAX_VALUE) ? factoryPhase : factoryPhase + 1;
    }

    RedisLockClient client() {
        return this.client;
    }

    @Override
    public void start() {
        if (this.closed.get()) {
            logger.warn("The application context was started again after a stop; the distributed lock client was"
                    + " closed with the Redis connection factory and is not reopened, so lock calls will fail."
                    + " Refresh a new application context, or use a dedicated distributed-lock.redis.* connection.");
        }
        this.running = true;
    }

    @Override
    public void stop() {
        this.running = false;
        close();
    }

    @Override
    public boolean isRunning() {
        return this.running;
    }

    @Override
    public int getPhase() {
        return this.phase;
    }

    @Override
    public void destroy() {
        close();
    }

    private void close() {
        if (this.closed.compareAndSet(false, true)) {
            this.client.close();
        }
    }
}
