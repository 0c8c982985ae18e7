package dev.distlock.core.internal.redis;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Function;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.netty.util.Timer;
import org.jspecify.annotations.Nullable;

/**
 * The {@link RedisGateway} over Lettuce, for every deployment: the calls are written once here and the deployment's
 * difference is its {@link Topology} ({@link MasterTopology} for standalone and Sentinel, {@link ClusterTopology}
 * for Redis Cluster). Scripts run by {@code EVALSHA} with an {@code EVAL} fallback ({@link ScriptCalls}); the channels
 * subscribed through this gateway are remembered, so a topology that moves its connections (Sentinel) subscribes
 * them again. Lettuce re-subscribes after a reconnect; messages published meanwhile are lost, which waiters tolerate
 * through their back-off bound.
 */
final class LettuceGateway implements RedisGateway {

    private static final int DELIFEQ_UNKNOWN = 0;

    private static final int DELIFEQ_PROBING = 1;

    private static final int DELIFEQ_SUPPORTED = 2;

    private static final int DELIFEQ_REFUSED = 3;

    /** Channels subscribed through this gateway and not unsubscribed since: re-subscribed after a move. */
    private final Set<String> channels = ConcurrentHashMap.newKeySet();

    private volatile BiConsumer<String, String> listener = (channel, message) -> {
    };

    private final Topology topology;

    /** What this gateway knows of {@code DELIFEQ} on its server: one of the {@code DELIFEQ_*} states. */
    private final AtomicInteger deleteIfEquals = new AtomicInteger(DELIFEQ_UNKNOWN);

    private final Timer timer;

    /**
     * @param open opens the topology, given the receiver of its messages and the live set of subscribed channels
     * @throws io.lettuce.core.RedisException if the topology cannot connect
     */
    LettuceGateway(Function<Subscriptions, Topology> open, Timer timer) {
        this.timer = timer;
        this.topology = open.apply(new Subscriptions((channel, message) -> this.listener.accept(channel, message),
                this.channels));
    }

    /**
     * What a topology is opened with: the receiver of the messages on its pub/sub connections, and the channels
     * subscribed now (a live view, to subscribe again when it moves its connections).
     *
     * @param messages receives (channel, message)
     * @param channels the channels subscribed through the gateway now
     */
    record Subscriptions(BiConsumer<String, String> messages, Set<String> channels) {
    }

    @Override
    public <T> CompletableFuture<T> eval(LuaScript script, ScriptOutputType type, String[] keys, String... args) {
        return this.topology.route(() -> ScriptCalls.eval(this.topology.commands(), script, type, keys, args));
    }

    @Override
    public <T> CompletableFuture<Acknowledged<T>> evalAcknowledged(LuaScript script, ScriptOutputType type,
            String[] keys, int replicas, long timeoutMillis, String... args) {
        RedisClusterAsyncCommands<String, String> ack = this.topology.ackCommands();
        return this.topology.route(() -> ScriptCalls.<T>eval(ack, script, type, keys, args)
            .thenCompose((reply) -> ack.waitForReplication(replicas, timeoutMillis).toCompletableFuture()
                .thenApply((acks) -> new Acknowledged<>(reply, acks))));
    }

    @Override
    public CompletableFuture<Boolean> exists(String key) {
        return this.topology.commands().exists(key).toCompletableFuture()
            .thenApply((count) -> count != null && count > 0);
    }

    @Override
    public boolean mayDeleteIfEquals(String probeKey) {
        int state = this.deleteIfEquals.get();
        if (state == DELIFEQ_UNKNOWN && this.deleteIfEquals.compareAndSet(DELIFEQ_UNKNOWN, DELIFEQ_PROBING)) {
            // An empty value never matches a lock's hold, and the probe key is never written: nothing is deleted.
            sendDeleteIfEquals(probeKey, "").whenComplete((count, ex) -> this.deleteIfEquals.compareAndSet(
                    DELIFEQ_PROBING, (ex == null) ? DELIFEQ_SUPPORTED
                            : isRefusedCommand(ex) ? DELIFEQ_REFUSED : DELIFEQ_UNKNOWN));
        }
        return state == DELIFEQ_SUPPORTED;
    }

    /**
     * Unlike a script call it is not cancelled when the caller gives up: a late run deletes only this exact hold,
     * which its owner was releasing anyway. A refusal (the server no longer has the command, e.g. after a failover to
     * an older one) is learned, and the caller falls back to a script.
     */
    @Override
    public CompletableFuture<@Nullable Boolean> deleteIfEquals(String key, String value) {
        return sendDeleteIfEquals(key, value).handle((count, ex) -> {
            if (ex == null) {
                return count != null && count == 1L;
            }
            if (isRefusedCommand(ex)) {
                this.deleteIfEquals.set(DELIFEQ_REFUSED);
                return null;
            }
            throw (ex instanceof CompletionException completion) ? completion : new CompletionException(ex);
        });
    }

    private CompletableFuture<Long> sendDeleteIfEquals(String key, String value) {
        return this.topology.route(() -> this.topology.commands()
            .dispatch(ServerCommand.DELIFEQ, new IntegerOutput<>(StringCodec.UTF8),
                    new CommandArgs<>(StringCodec.UTF8).addKey(key).addValue(value))
            .toCompletableFuture());
    }

    private static boolean isRefusedCommand(Throwable ex) {
        Throwable cause = (ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex;
        String message = cause.getMessage();
        return cause instanceof RedisCommandExecutionException && message != null
                && (message.startsWith("ERR unknown command") || message.startsWith("NOPERM"));
    }

    @Override
    public CompletableFuture<Void> subscribe(String channel) {
        // recorded before it is sent, so a move that swaps connections meanwhile re-subscribes it
        this.channels.add(channel);
        return this.topology.subscribe(channel);
    }

    @Override
    public CompletableFuture<Void> unsubscribe(String channel) {
        this.channels.remove(channel);
        return this.topology.unsubscribe(channel);
    }

    @Override
    public void onMessage(BiConsumer<String, String> listener) {
        this.listener = listener;
    }

    @Override
    public Timer timer() {
        return this.timer;
    }

    @Override
    public String publishCommand() {
        return this.topology.publishCommand();
    }

    @Override
    public boolean publishCountsListeners() {
        return this.topology.publishCountsListeners();
    }

    @Override
    public ConnectionStatus connectionStatus() {
        return this.topology.status();
    }

    @Override
    public void close() {
        this.topology.close();
    }
}
