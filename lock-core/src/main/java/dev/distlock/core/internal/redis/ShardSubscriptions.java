package dev.distlock.core.internal.redis;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.event.ClusterTopologyChangedEvent;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.RedisClusterPubSubAdapter;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.netty.util.Timer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;

/**
 * The sharded pub/sub subscriptions of a {@link ClusterTopology}: each channel is subscribed ({@code SSUBSCRIBE}) on
 * the master that serves its slot, where a release's {@code PUBSUB SHARDNUMSUB} counts this client as listening, and
 * it follows that master when the slot moves. Lettuce routes a shard channel by slot but never moves it: after a
 * reconnect it subscribes again on the same node. So the node is picked here, from the client's view of the cluster,
 * and a channel moves to its slot's master
 * <ul>
 *   <li>when Redis drops the subscription: a node that loses a slot (failover, slot migration) sends an unasked
 *       {@code SUNSUBSCRIBE}. The channel is subscribed again where a refreshed view says; a node that no longer
 *       serves the slot answers {@code MOVED} to the new one, which is followed. A demoted master accepts it (as a
 *       replica) without counting it, so while the view still names the node that dropped the channel, the view is
 *       refreshed again, a few times;</li>
 *   <li>when the client's topology changes (its refresh after a killed master was replaced): the channel is
 *       subscribed on the new master, then unsubscribed on the old node.</li>
 * </ul>
 * A message is passed on only from the node its channel is subscribed on now. A replica that still has it (Lettuce
 * subscribed it again after a reconnect) receives the same messages, and a handoff announced twice would be taken for
 * one nobody waits for, and released.
 */
final class ShardSubscriptions implements AutoCloseable {

    private static final Logger logger = LoggerFactory.getLogger(ShardSubscriptions.class);

    /** Lets a burst of dropped subscriptions (every channel of a slot) make one topology refresh; paces retries. */
    private static final long RESYNC_DELAY_MILLIS = 250;

    /** The refresh after a topology change event is read once the client took the new view in. */
    private static final long FOLLOW_DELAY_MILLIS = 50;

    /** How many refreshed views may still name the node that dropped a channel before that is believed. */
    private static final int STALE_VIEWS = 20;

    private final RedisClusterClient client;

    private final StatefulRedisClusterPubSubConnection<String, String> pubSub;

    private final BiConsumer<String, String> messages;

    private final Timer timer;

    private final ConcurrentMap<String, ShardChannel> shards = new ConcurrentHashMap<>();

    /** Unsubscribes this class sent and whose confirmation has not come yet, by channel and node. */
    private final ConcurrentMap<String, Integer> unsubscribing = new ConcurrentHashMap<>();

    private final AtomicBoolean resyncScheduled = new AtomicBoolean();

    private final Disposable topologyChanges;

    private volatile boolean closed;

    /**
     * Listens on the pub/sub connection (its node connections) and to the client's topology changes.
     *
     * @param messages receives (channel, message) of the subscribed channels
     */
    ShardSubscriptions(RedisClusterClient client, StatefulRedisClusterPubSubConnection<String, String> pubSub,
            BiConsumer<String, String> messages) {
        this.client = client;
        this.pubSub = pubSub;
        this.messages = messages;
        this.timer = client.getResources().timer();
        pubSub.addListener(new RedisClusterPubSubAdapter<>() {
            @Override
            public void smessage(RedisClusterNode node, String channel, String message) {
                deliver(ShardNode.of(node), channel, message);
            }

            @Override
            public void sunsubscribed(RedisClusterNode node, String channel, long count) {
                dropped(ShardNode.of(node), channel);
            }
        });
        this.topologyChanges = client.getResources().eventBus().get()
            .filter(ClusterTopologyChangedEvent.class::isInstance)
            .subscribe((event) -> later(FOLLOW_DELAY_MILLIS, this::follow));
    }

    /** Subscribes a channel on the master of its slot; completes when that master confirmed it. */
    CompletableFuture<Void> subscribe(String channel) {
        ShardChannel shard = new ShardChannel();
        this.shards.put(channel, shard);
        ShardNode master = masterOf(channel);
        if (master == null) {
            resync();
            return CompletableFuture.failedFuture(new IllegalStateException("No master serves the slot of channel "
                    + channel + " in the client's view of the cluster"));
        }
        return subscribeOn(channel, shard, master, true);
    }

    /** Unsubscribes a channel from the node it is subscribed on. */
    CompletableFuture<Void> unsubscribe(String channel) {
        ShardChannel shard = this.shards.remove(channel);
        ShardNode node = (shard != null) ? shard.node : null;
        return (node != null) ? unsubscribeOn(channel, node) : CompletableFuture.completedFuture(null);
    }

    /** Subscribes on a node; one {@code MOVED} reply (the node no longer serves the slot) is followed. */
    private CompletableFuture<Void> subscribeOn(String channel, ShardChannel shard, ShardNode node, boolean followMoved) {
        shard.node = node;
        CompletableFuture<Void> subscribed = connection(node)
            .thenCompose((connection) -> connection.async().ssubscribe(channel).toCompletableFuture());
        if (followMoved) {
            subscribed = subscribed.exceptionallyCompose((ex) -> {
                ShardNode moved = ShardNode.movedTo(ex);
                if (moved == null || this.shards.get(channel) != shard || shard.node != node) {
                    return CompletableFuture.failedFuture(ex);
                }
                shard.left(node);
                return subscribeOn(channel, shard, moved, false);
            });
        }
        return subscribed.whenComplete((ignored, ex) -> {
            if (ex == null) {
                shard.failures = 0;
            }
            else if (this.shards.get(channel) == shard && shard.node == node) {
                logger.debug("Subscribing to shard channel {} on {} failed; following the topology", channel, node,
                        ex);
                shard.node = null;
                if (shard.failures++ < STALE_VIEWS) {
                    resync();
                }
            }
        });
    }

    private CompletableFuture<Void> unsubscribeOn(String channel, ShardNode node) {
        String key = channel + '@' + node;
        this.unsubscribing.merge(key, 1, Integer::sum);
        return connection(node)
            .thenCompose((connection) -> connection.async().sunsubscribe(channel).toCompletableFuture())
            .whenComplete((ignored, ex) -> {
                if (ex != null) {
                    confirmed(key);
                }
            });
    }

    /** The pub/sub connection to a node; failed (not thrown) for a node the client's view does not know. */
    private CompletableFuture<StatefulRedisPubSubConnection<String, String>> connection(ShardNode node) {
        try {
            return this.pubSub.getConnectionAsync(node.host(), node.port());
        }
        catch (RuntimeException ex) {
            return CompletableFuture.failedFuture(ex);
        }
    }

    private void deliver(@Nullable ShardNode node, String channel, String message) {
        ShardChannel shard = this.shards.get(channel);
        if (shard != null && node != null && node.equals(shard.node)) {
            this.messages.accept(channel, message);
        }
    }

    /** A {@code SUNSUBSCRIBE} confirmed: ours, or Redis dropped the channel because the node lost its slot. */
    private void dropped(@Nullable ShardNode node, String channel) {
        if (node == null || confirmed(channel + '@' + node)) {
            return;
        }
        ShardChannel shard = this.shards.get(channel);
        if (shard != null && node.equals(shard.node)) {
            logger.debug("Redis dropped shard channel {} on {} (its slot moved); following the topology", channel,
                    node);
            shard.node = null;
            shard.left(node);
            resync();
        }
    }

    /** Whether an unsubscribe this class sent was pending for the key, counting it as confirmed. */
    private boolean confirmed(String key) {
        boolean[] pending = { false };
        this.unsubscribing.computeIfPresent(key, (k, count) -> {
            pending[0] = true;
            return (count > 1) ? count - 1 : null;
        });
        return pending[0];
    }

    /** Refreshes the topology and follows it, once for a burst of calls. */
    private void resync() {
        if (this.resyncScheduled.compareAndSet(false, true)) {
            later(RESYNC_DELAY_MILLIS, () -> {
                this.resyncScheduled.set(false);
                this.client.refreshPartitionsAsync().whenComplete((ignored, ex) -> follow());
            });
        }
    }

    /** Moves every channel that is not on its slot's master (in the client's view now) there. */
    private void follow() {
        if (this.closed) {
            return;
        }
        boolean again = false;
        for (Map.Entry<String, ShardChannel> entry : this.shards.entrySet()) {
            String channel = entry.getKey();
            ShardChannel shard = entry.getValue();
            ShardNode master = masterOf(channel);
            ShardNode current = shard.node;
            if (master == null) {
                again |= current == null;
                continue;
            }
            if (master.equals(shard.left)) {
                if (shard.staleViews++ < STALE_VIEWS) {
                    // Not yet refreshed. Subscribed there, the channel is moved on (MOVED) or heard uncounted (a
                    // demoted master, now a replica), which is no worse than not at all: a release announces only
                    // to a waiter the master counts (lib/offer.lua), so nothing heard there is a withdrawn offer.
                    again = true;
                    if (current == null) {
                        subscribeOn(channel, shard, master, true);
                    }
                    continue;
                }
                shard.left = null;
            }
            if (master.equals(current)) {
                continue;
            }
            subscribeOn(channel, shard, master, true).thenRun(() -> {
                if (current != null && !current.equals(shard.node)) {
                    unsubscribeOn(channel, current);
                }
            });
        }
        if (again) {
            resync();
        }
    }

    private @Nullable ShardNode masterOf(String channel) {
        return ShardNode.of(this.client.getPartitions().getMasterBySlot(SlotHash.getSlot(channel)));
    }

    private void later(long millis, Runnable task) {
        if (this.closed) {
            return;
        }
        try {
            this.timer.newTimeout((timeout) -> task.run(), millis, TimeUnit.MILLISECONDS);
        }
        catch (IllegalStateException stopped) {
            // the client is shutting down
        }
    }

    @Override
    public void close() {
        this.closed = true;
        this.topologyChanges.dispose();
    }
}
