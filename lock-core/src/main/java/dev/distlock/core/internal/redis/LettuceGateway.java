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
import io.lettuce.core.SetArgs;
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

    private static final int COMPARE_DELETE_UNKNOWN = 0;

    private static final int COMPARE_DELETE_PROBING = 1;

    /** The server runs {@code DELIFEQ key value} (Valkey 9 and later). */
    private static final int COMPARE_DELETE_DELIFEQ = 2;

    /** The server runs {@code DELEX key IFEQ value} (Redis 8.4 and later). */
    private static final int COMPARE_DELETE_DELEX = 3;

    private static final int COMPARE_DELETE_REFUSED = 4;

    /** Channels subscribed through this gateway and not unsubscribed since: re-subscribed after a move. */
    private final Set<String> channels = ConcurrentHashMap.newKeySet();

    private volatile BiConsumer<String, String> listener = (channel, message) -> {
    };

    private final Topology topology;

    /**
     * What this gateway knows of a compare-and-delete command on its server: one of the {@code COMPARE_DELETE_*}
     * states.
     */
    private final AtomicInteger deleteIfEquals = new AtomicInteger(COMPARE_DELETE_UNKNOWN);

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

    /**
     * Like a script call ({@link ScriptCalls#eval}), the command is cancelled when the returned future fails, a
     * caller's timeout included: Lettuce then neither writes it nor replays it after a reconnect.
     */
    @Override
    public CompletableFuture<@Nullable String> setIfAbsent(String key, String value, long pxMillis) {
        return this.topology.route(() -> {
            CompletableFuture<String> sent = this.topology.commands()
                .setGet(key, value, SetArgs.Builder.nx().px(pxMillis))
                .toCompletableFuture();
            CompletableFuture<@Nullable String> result = sent.handle((previous, ex) -> {
                if (ex != null) {
                    Throwable explained = ScriptErrors.explainCommand("set", ex);
                    throw (explained instanceof CompletionException completion) ? completion
                            : new CompletionException(explained);
                }
                return previous;
            });
            result.whenComplete((ignored, ex) -> {
                if (ex != null) {
                    sent.cancel(false);
                }
            });
            return result;
        });
    }

    @Override
    public boolean mayDeleteIfEquals(String probeKey) {
        int state = this.deleteIfEquals.get();
        if (state == COMPARE_DELETE_UNKNOWN
                && this.deleteIfEquals.compareAndSet(COMPARE_DELETE_UNKNOWN, COMPARE_DELETE_PROBING)) {
            probe(probeKey);
        }
        return state == COMPARE_DELETE_DELIFEQ || state == COMPARE_DELETE_DELEX;
    }

    /**
     * Asks for {@code DELIFEQ}, then, where the server does not know it, for {@code DELEX ... IFEQ}. An empty value
     * never matches a lock's hold, and the probe key is never written: nothing is deleted. A probe without an answer
     * (timeout, connection lost) leaves the state unknown, for a later release to probe again.
     */
    private void probe(String probeKey) {
        send(COMPARE_DELETE_DELIFEQ, probeKey, "")
            .handle((count, ex) -> (ex != null && isUnknownCommand(ex))
                    ? send(COMPARE_DELETE_DELEX, probeKey, "")
                        .handle((delexCount, delexEx) -> learned(COMPARE_DELETE_DELEX, delexEx))
                    : CompletableFuture.completedFuture(learned(COMPARE_DELETE_DELIFEQ, ex)))
            .thenCompose((learned) -> learned)
            .thenAccept((learned) -> this.deleteIfEquals.compareAndSet(COMPARE_DELETE_PROBING, learned));
    }

    /** What the answer to a probe of {@code command} says: that it runs, that it is refused, or nothing (no answer). */
    private static int learned(int command, @Nullable Throwable ex) {
        return (ex == null) ? command : isRefusedCommand(ex) ? COMPARE_DELETE_REFUSED : COMPARE_DELETE_UNKNOWN;
    }

    /**
     * Unlike a script call it is not cancelled when the caller gives up: a late run deletes only this exact hold,
     * which its owner was releasing anyway. A refusal (the server no longer has the command, e.g. after a failover to
     * an older one) is learned, and the caller falls back to a script.
     */
    @Override
    public CompletableFuture<@Nullable Boolean> deleteIfEquals(String key, String value) {
        return send(this.deleteIfEquals.get(), key, value).handle((count, ex) -> {
            if (ex == null) {
                return count != null && count == 1L;
            }
            if (isRefusedCommand(ex)) {
                this.deleteIfEquals.set(COMPARE_DELETE_REFUSED);
                return null;
            }
            throw (ex instanceof CompletionException completion) ? completion : new CompletionException(ex);
        });
    }

    /** Sends the compare-and-delete {@code command} ({@code COMPARE_DELETE_DELEX}, or else {@code DELIFEQ}). */
    private CompletableFuture<Long> send(int command, String key, String value) {
        CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8).addKey(key);
        ServerCommand type = ServerCommand.DELIFEQ;
        if (command == COMPARE_DELETE_DELEX) {
            type = ServerCommand.DELEX;
            args.add(ServerCommand.IFEQ);
        }
        args.addValue(value);
        ServerCommand sent = type;
        return this.topology.route(() -> this.topology.commands()
            .dispatch(sent, new IntegerOutput<>(StringCodec.UTF8), args)
            .toCompletableFuture());
    }

    private static boolean isUnknownCommand(Throwable ex) {
        String message = messageOf(ex);
        return message != null && message.startsWith("ERR unknown command");
    }

    private static boolean isRefusedCommand(Throwable ex) {
        String message = messageOf(ex);
        return message != null && (message.startsWith("ERR unknown command") || message.startsWith("NOPERM"));
    }

    /** The message of a server's error reply, or null for any other failure. */
    private static @Nullable String messageOf(Throwable ex) {
        Throwable cause = (ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex;
        return (cause instanceof RedisCommandExecutionException) ? cause.getMessage() : null;
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
    public boolean timesOutCommands() {
        return this.topology.timesOutCommands();
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
