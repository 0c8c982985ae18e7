package dev.distlock.core.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

/**
 * {@link RedisGateway} over a Lettuce {@link RedisClient} (standalone, or Sentinel through a Sentinel
 * {@code RedisURI}): one command connection, one pub/sub connection. Lettuce re-subscribes after a reconnect; messages
 * published meanwhile are lost, which waiters tolerate through their back-off bound.
 */
public final class LettuceRedisGateway implements RedisGateway {

    private final StatefulRedisConnection<String, String> connection;

    private final RedisAsyncCommands<String, String> commands;

    private final StatefulRedisPubSubConnection<String, String> pubSub;

    public LettuceRedisGateway(RedisClient client) {
        this.connection = client.connect(StringCodec.UTF8);
        try {
            this.pubSub = client.connectPubSub(StringCodec.UTF8);
        }
        catch (RuntimeException ex) {
            this.connection.close();
            throw ex;
        }
        this.commands = this.connection.async();
        // Warm the script cache so the first lock operations need no NOSCRIPT retry; failures are harmless.
        for (LuaScript script : LuaScript.ALL) {
            this.commands.scriptLoad(script.body());
        }
    }

    @Override
    public <T> CompletableFuture<T> eval(LuaScript script, ScriptOutputType type, String[] keys, String... args) {
        CompletableFuture<T> bySha = this.commands.<T>evalsha(script.sha1(), type, keys, args).toCompletableFuture();
        return bySha.exceptionallyCompose((ex) -> isNoScript(ex)
                ? this.commands.<T>eval(script.body(), type, keys, args).toCompletableFuture()
                : CompletableFuture.failedFuture(ex));
    }

    private static boolean isNoScript(Throwable ex) {
        Throwable cause = (ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex;
        return cause instanceof RedisNoScriptException
                || (cause.getMessage() != null && cause.getMessage().startsWith("NOSCRIPT"));
    }

    @Override
    public CompletableFuture<Boolean> exists(String key) {
        return this.commands.exists(key).toCompletableFuture().thenApply((count) -> count != null && count > 0);
    }

    @Override
    public CompletableFuture<Void> subscribe(String channel) {
        return this.pubSub.async().subscribe(channel).toCompletableFuture();
    }

    @Override
    public CompletableFuture<Void> unsubscribe(String channel) {
        return this.pubSub.async().unsubscribe(channel).toCompletableFuture();
    }

    @Override
    public void onMessage(BiConsumer<String, String> listener) {
        this.pubSub.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
                listener.accept(channel, message);
            }
        });
    }

    @Override
    public void close() {
        try {
            this.pubSub.close();
        }
        finally {
            this.connection.close();
        }
    }
}
