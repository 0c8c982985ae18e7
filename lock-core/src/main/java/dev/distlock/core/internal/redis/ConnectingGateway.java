package dev.distlock.core.internal.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.distlock.core.internal.time.DurationFormat;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.ScriptOutputType;
import io.netty.util.Timer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link RedisGateway} for a lock client that may start before Redis does (a pod that starts before its Redis):
 * it opens the real gateway (standalone, Sentinel or Cluster, through {@code connect}) on a daemon thread, retrying
 * with a back-off from 10 ms doubling up to {@code maxDelay}, and passes every call to it once it is open. Lettuce
 * cannot hand out a connection whose first connect failed, which is why the first connection is retried here; after
 * that, Lettuce reconnects by itself.
 *
 * <p>Until it is open, {@link #connectionStatus()} says "not connected since the lock client started" with the last
 * attempt's failure, so lock calls fail fast; calls that get past that check fail with a
 * {@link RedisConnectionException}. The first WARN names the target and the failure; the connection, when made,
 * is logged at INFO. {@link #close()} stops the attempts and closes the gateway if it was opened.
 */
final class ConnectingGateway implements RedisGateway {

    private static final Logger logger = LoggerFactory.getLogger(ConnectingGateway.class);

    private static final Duration FIRST_DELAY = Duration.ofMillis(10);

    private final Supplier<RedisGateway> connect;

    private final String target;

    private final Timer timer;

    private final Duration maxDelay;

    private final ConnectionStatus notConnected;

    private final CountDownLatch opened = new CountDownLatch(1);

    private final Thread connector;

    private final String publishCommand;

    private volatile @Nullable RedisGateway gateway;

    private volatile @Nullable String lastFailure;

    private volatile BiConsumer<String, String> listener = (channel, message) -> {
    };

    private volatile boolean closed;

    /** Makes "closed" and "gateway set" exclusive, so a gateway opened while closing is closed, not kept. */
    private final ReentrantLock swap = new ReentrantLock();

    /**
     * Starts connecting at once and waits up to {@code initialWait} for the first connection, so a Redis that is up
     * is used from the first lock call on.
     *
     * @param connect opens the real gateway; throws when Redis cannot be reached
     * @param target where it connects, for messages ({@code host:port}, Sentinel master, Cluster seeds)
     * @param cluster whether the real gateway is a Redis Cluster one (its publish command, {@code spublish})
     * @param maxDelay longest pause between two attempts
     * @param initialWait how long the constructor waits for the first connection; zero not to wait
     */
    ConnectingGateway(Supplier<RedisGateway> connect, String target, boolean cluster, Timer timer, Duration maxDelay,
            Duration initialWait) {
        this.connect = connect;
        this.timer = timer;
        this.target = target;
        this.maxDelay = maxDelay;
        this.notConnected = ConnectionStatus.notConnectedYet(target, () -> this.lastFailure);
        // the Cluster gateway uses sharded pub/sub (ClusterTopology)
        this.publishCommand = cluster ? "spublish" : "publish";
        this.connector = new Thread(this::connectUntilOpen, "distlock-connect");
        this.connector.setDaemon(true);
        this.connector.start();
        try {
            this.opened.await(initialWait.toNanos(), TimeUnit.NANOSECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    private void connectUntilOpen() {
        long delayNanos = FIRST_DELAY.toNanos();
        int attempts = 0;
        while (!this.closed) {
            attempts++;
            try {
                RedisGateway real = this.connect.get();
                real.onMessage((channel, message) -> this.listener.accept(channel, message));
                if (!install(real)) {
                    return;
                }
                this.opened.countDown();
                if (attempts > 1) {
                    logger.info("Distributed locks connected to Redis at {} after {} attempts; lock calls work now",
                            this.target, attempts);
                }
                return;
            }
            catch (RuntimeException ex) {
                noteFailure(attempts, ex);
            }
            try {
                Thread.sleep(TimeUnit.NANOSECONDS.toMillis(delayNanos));
            }
            catch (InterruptedException ex) {
                return;
            }
            delayNanos = Math.min(delayNanos * 2, this.maxDelay.toNanos());
        }
    }

    /** Makes {@code real} the gateway unless this one was closed meanwhile; then closes {@code real}. */
    private boolean install(RedisGateway real) {
        boolean tooLate;
        this.swap.lock();
        try {
            tooLate = this.closed;
            if (!tooLate) {
                this.gateway = real;
            }
        }
        finally {
            this.swap.unlock();
        }
        if (tooLate) {
            real.close();
        }
        return !tooLate;
    }

    private void noteFailure(int attempts, RuntimeException ex) {
        String failure = describe(ex);
        if (this.lastFailure == null) {
            logger.warn("Distributed locks cannot reach Redis at {} yet ({}); lock calls fail fast until"
                    + " they can. Retrying in the background every {} at most.", this.target, failure,
                    DurationFormat.format(this.maxDelay));
        }
        else {
            logger.debug("Attempt {} to connect to Redis at {} failed: {}", attempts, this.target, failure);
        }
        this.lastFailure = failure;
    }

    private static String describe(Throwable ex) {
        Throwable root = ex;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = (root.getMessage() != null) ? root.getMessage() : root.getClass().getSimpleName();
        return (root == ex) ? message : ex.getMessage() + " (" + message + ")";
    }

    private RedisGateway open() {
        RedisGateway real = this.gateway;
        if (real == null) {
            throw new RedisConnectionException("Not connected to Redis at " + this.target + " yet"
                    + ((this.lastFailure != null) ? ": " + this.lastFailure : ""));
        }
        return real;
    }

    private <T> CompletableFuture<T> whenOpen(Supplier<CompletableFuture<T>> call) {
        try {
            return call.get();
        }
        catch (RedisConnectionException ex) {
            return CompletableFuture.failedFuture(ex);
        }
    }

    @Override
    public <T> CompletableFuture<T> eval(LuaScript script, ScriptOutputType type, String[] keys, String... args) {
        return whenOpen(() -> open().eval(script, type, keys, args));
    }

    @Override
    public <T> CompletableFuture<Acknowledged<T>> evalAcknowledged(LuaScript script, ScriptOutputType type,
            String[] keys, int replicas, long timeoutMillis, String... args) {
        return whenOpen(() -> open().evalAcknowledged(script, type, keys, replicas, timeoutMillis, args));
    }

    @Override
    public CompletableFuture<Boolean> exists(String key) {
        return whenOpen(() -> open().exists(key));
    }

    @Override
    public CompletableFuture<@Nullable String> setIfAbsent(String key, String value, long pxMillis) {
        return whenOpen(() -> open().setIfAbsent(key, value, pxMillis));
    }

    @Override
    public boolean mayDeleteIfEquals(String probeKey) {
        return ifOpen((real) -> real.mayDeleteIfEquals(probeKey), false);
    }

    @Override
    public CompletableFuture<@Nullable Boolean> deleteIfEquals(String key, String value) {
        return whenOpen(() -> open().deleteIfEquals(key, value));
    }

    @Override
    public CompletableFuture<Void> subscribe(String channel) {
        return whenOpen(() -> open().subscribe(channel));
    }

    @Override
    public CompletableFuture<Void> unsubscribe(String channel) {
        return ifOpen((real) -> real.unsubscribe(channel), CompletableFuture.completedFuture(null));
    }

    @Override
    public void onMessage(BiConsumer<String, String> listener) {
        this.listener = listener;
    }

    @Override
    public String publishCommand() {
        return ifOpen(RedisGateway::publishCommand, this.publishCommand);
    }

    @Override
    public boolean publishCountsListeners() {
        return ifOpen(RedisGateway::publishCountsListeners, true);
    }

    @Override
    public boolean timesOutCommands() {
        return ifOpen(RedisGateway::timesOutCommands, false);
    }

    @Override
    public ConnectionStatus connectionStatus() {
        return ifOpen(RedisGateway::connectionStatus, this.notConnected);
    }

    /** What the real gateway says once it is open; {@code otherwise} until then. */
    private <T> T ifOpen(Function<RedisGateway, T> call, T otherwise) {
        RedisGateway real = this.gateway;
        return (real != null) ? call.apply(real) : otherwise;
    }

    @Override
    public void close() {
        RedisGateway real;
        this.swap.lock();
        try {
            this.closed = true;
            real = this.gateway;
        }
        finally {
            this.swap.unlock();
        }
        this.connector.interrupt();
        if (real != null) {
            real.close();
        }
    }

    @Override
    public Timer timer() {
        return this.timer;
    }
}
