package dev.distlock.core.internal.redis;

import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

import io.lettuce.core.ScriptOutputType;
import io.netty.util.Timer;
import org.jspecify.annotations.Nullable;

/**
 * The few Redis operations the locks need, asynchronous and without blocking the caller. Opened by
 * {@link RedisGateways}: one Lettuce implementation whose {@code Topology} says what differs between standalone,
 * Sentinel and Cluster.
 */
public interface RedisGateway extends AutoCloseable {

    /** Runs a script by {@code EVALSHA}, falling back to {@code EVAL} (which caches it again) on {@code NOSCRIPT}. */
    <T> CompletableFuture<T> eval(LuaScript script, ScriptOutputType type, String[] keys, String... args);

    /**
     * Runs a script like {@link #eval} on a connection of its own and then {@code WAIT}s for {@code replicas}
     * replicas to acknowledge it, at most {@code timeoutMillis}. {@code WAIT} counts the writes of the connection it
     * runs on, which is why both share a dedicated connection.
     *
     * @return the script's reply and the number of replicas that acknowledged
     * @throws UnsupportedOperationException if this topology has no replica acknowledgement (Redis Cluster)
     */
    <T> CompletableFuture<Acknowledged<T>> evalAcknowledged(LuaScript script, ScriptOutputType type, String[] keys,
            int replicas, long timeoutMillis, String... args);

    /**
     * A script reply with the number of replicas that acknowledged the writes before it.
     *
     * @param <T> the reply type
     * @param reply the script's reply
     * @param replicas how many replicas acknowledged
     */
    record Acknowledged<T>(T reply, long replicas) {
    }

    /** {@code EXISTS key}. */
    CompletableFuture<Boolean> exists(String key);

    /**
     * {@code SET key value NX PX pxMillis GET}: sets {@code key} only if it does not exist, one plain command.
     * Completes with the value the key held before, or with null when it was free and is now set.
     */
    CompletableFuture<@Nullable String> setIfAbsent(String key, String value, long pxMillis);

    /**
     * Whether {@link #deleteIfEquals} may be sent: true once the server answered it, false until then and after it
     * refused it (no such command, or the user may not run it). The first call sends a probe in the background:
     * {@code DELIFEQ probeKey ''}, and where the server does not know that command, {@code DELEX probeKey IFEQ ''}
     * (a key no lock writes, under the caller's key prefix for ACL key patterns); a probe without an answer (timeout,
     * connection lost) is sent again by a later call. A gateway that never has the command says false.
     */
    default boolean mayDeleteIfEquals(String probeKey) {
        return false;
    }

    /**
     * The server's own compare-and-delete, {@code DELIFEQ key value} (Valkey 9 and later) or {@code DELEX key IFEQ
     * value} (Redis 8.4 and later), whichever the probe found: deletes {@code key} if its value is exactly
     * {@code value}, one plain command where a compare-and-delete would otherwise be a script. Completes with whether
     * it deleted, or with null when the server has no such command or the user may not run it: nothing was deleted,
     * and {@link #mayDeleteIfEquals} is false from then on.
     */
    default CompletableFuture<@Nullable Boolean> deleteIfEquals(String key, String value) {
        return CompletableFuture.completedFuture(null);
    }

    /** Subscribes the pub/sub connection to a channel; completes when Redis confirmed it. */
    CompletableFuture<Void> subscribe(String channel);

    /** Unsubscribes from a channel. */
    CompletableFuture<Void> unsubscribe(String channel);

    /** Sets the one receiver of messages (channel, message). Called once, before any subscription. */
    void onMessage(BiConsumer<String, String> listener);

    /** The command scripts announce a handoff with: {@code publish}, or {@code spublish} for shard channels. */
    default String publishCommand() {
        return "publish";
    }

    /**
     * Whether the server's subscriber count of a channel of {@link #publishCommand()}, asked in a script
     * ({@code PUBSUB NUMSUB} / {@code SHARDNUMSUB}), covers every client that listens (so 0 proves nobody does).
     * Classic pub/sub on Redis Cluster would count one node's subscribers only; the Cluster gateway uses sharded
     * pub/sub, counted on the slot's master where every client subscribes.
     */
    default boolean publishCountsListeners() {
        return true;
    }

    /**
     * Whether the Lettuce client fails each command of this gateway's calls itself once the operation timeout it was
     * opened with has passed (see {@link CommandExpiry}), so a call of one command needs no timer of the caller's. A
     * call of several commands one after the other (a script by its body after {@code NOSCRIPT}) is bounded per
     * command.
     */
    default boolean timesOutCommands() {
        return false;
    }

    /**
     * The timer of the Lettuce client's resources (a hashed wheel, the one Lettuce times its own commands with): the
     * locks time their calls on it too, so no thread of this library outlives the client.
     */
    Timer timer();

    /** Whether the command connection is up and where it goes, for failing fast and health checks. */
    default ConnectionStatus connectionStatus() {
        return ConnectionStatus.UNTRACKED;
    }

    /** Closes the connections this gateway opened; the underlying client stays open. */
    @Override
    void close();
}
