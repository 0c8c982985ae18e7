package dev.distlock.core.internal.redis;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

/**
 * What differs between Redis deployments for the {@link LettuceGateway}: how its connections are made and which ones
 * a call uses now, how a script call is routed, how channels are subscribed and published to (classic pub/sub, or
 * sharded on Redis Cluster), and whether the command connection's state is tracked. {@link MasterTopology} is
 * standalone and Sentinel (one connection set, moved to a new master by Sentinel following), {@link ClusterTopology}
 * is Redis Cluster.
 * Messages arrive through the listener the gateway hands the topology when it is opened.
 */
interface Topology extends AutoCloseable {

    /** The commands scripts and {@code EXISTS} use now. */
    RedisClusterAsyncCommands<String, String> commands();

    /**
     * The commands of the dedicated connection on which a script and the {@code WAIT} after it run.
     *
     * @throws UnsupportedOperationException if this topology has no replica acknowledgement (Redis Cluster)
     * @throws IllegalStateException if replica acknowledgement was not asked for when the topology was opened
     */
    RedisClusterAsyncCommands<String, String> ackCommands();

    /** Subscribes to a channel, with the subscribe command of this topology; completes when Redis confirmed it. */
    CompletableFuture<Void> subscribe(String channel);

    /** Unsubscribes from a channel. */
    CompletableFuture<Void> unsubscribe(String channel);

    /** See {@link RedisGateway#publishCommand()}. */
    default String publishCommand() {
        return "publish";
    }

    /**
     * Runs a script call the way this topology needs: on Redis Cluster {@code TRYAGAIN} is retried (calling
     * {@code call} again), under Sentinel a {@code READONLY} reply makes the master be looked up.
     */
    <T> CompletableFuture<T> route(Supplier<CompletableFuture<T>> call);

    /** See {@link RedisGateway#publishCountsListeners()}. */
    boolean publishCountsListeners();

    /** See {@link RedisGateway#timesOutCommands()}. */
    default boolean timesOutCommands() {
        return false;
    }

    /** The state of the command connection; {@link ConnectionStatus#UNTRACKED} unless a topology tracks it. */
    default ConnectionStatus status() {
        return ConnectionStatus.UNTRACKED;
    }

    /** Closes the connections this topology opened; the Lettuce client stays open. */
    @Override
    void close();
}
