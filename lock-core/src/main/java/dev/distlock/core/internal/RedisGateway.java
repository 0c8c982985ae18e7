package dev.distlock.core.internal;

import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

import io.lettuce.core.ScriptOutputType;

/**
 * The few Redis operations the locks need, asynchronous and without blocking the caller. One implementation per
 * topology (standalone/Sentinel now; Cluster routes scripts by slot and uses sharded pub/sub).
 */
public interface RedisGateway extends AutoCloseable {

    /** Runs a script by {@code EVALSHA}, falling back to {@code EVAL} (which caches it again) on {@code NOSCRIPT}. */
    <T> CompletableFuture<T> eval(LuaScript script, ScriptOutputType type, String[] keys, String... args);

    /** {@code EXISTS key}. */
    CompletableFuture<Boolean> exists(String key);

    /** Subscribes the pub/sub connection to a channel; completes when Redis confirmed it. */
    CompletableFuture<Void> subscribe(String channel);

    /** Unsubscribes from a channel. */
    CompletableFuture<Void> unsubscribe(String channel);

    /** Sets the one receiver of messages (channel, message). Called once, before any subscription. */
    void onMessage(BiConsumer<String, String> listener);

    /** Closes the connections this gateway opened; the underlying client stays open. */
    @Override
    void close();
}
