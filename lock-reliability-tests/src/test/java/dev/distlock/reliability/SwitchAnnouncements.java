package dev.distlock.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import dev.distlock.testsupport.RedisSentinelSet;
import dev.distlock.testsupport.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

/**
 * The test's own view of the Sentinels: a subscription to {@code +switch-master} on every Sentinel, recording when
 * the first one announced the new master ({@code System.nanoTime}). This is the moment S7 measures from.
 */
final class SwitchAnnouncements implements AutoCloseable {

    private final List<StatefulRedisPubSubConnection<String, String>> connections = new ArrayList<>();

    private final AtomicLong firstAt = new AtomicLong();

    private final AtomicReference<String> firstMessage = new AtomicReference<>();

    private final CountDownLatch announced = new CountDownLatch(1);

    private SwitchAnnouncements() {
    }

    /** Subscribes on every Sentinel of the set; returns once all subscriptions are confirmed. */
    static SwitchAnnouncements watch(RedisClient client, RedisSentinelSet set) {
        SwitchAnnouncements watch = new SwitchAnnouncements();
        for (RedisServer sentinel : set.sentinels()) {
            StatefulRedisPubSubConnection<String, String> connection = client
                .connectPubSub(RedisURI.create(sentinel.host(), sentinel.port()));
            watch.connections.add(connection);
            connection.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    long now = System.nanoTime();
                    if (watch.firstAt.compareAndSet(0, now)) {
                        watch.firstMessage.set(sentinel.port() + ": " + message);
                        watch.announced.countDown();
                    }
                }
            });
            connection.sync().subscribe("+switch-master");
        }
        return watch;
    }

    /** Waits for the first announcement and returns when it arrived. */
    long awaitFirst(Duration timeout) throws InterruptedException {
        if (!this.announced.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("no Sentinel announced +switch-master within " + timeout);
        }
        return this.firstAt.get();
    }

    /** The first announcement, as {@code sentinel-port: message}. */
    String firstMessage() {
        return this.firstMessage.get();
    }

    @Override
    public void close() {
        for (StatefulRedisPubSubConnection<String, String> connection : this.connections) {
            connection.close();
        }
    }
}
