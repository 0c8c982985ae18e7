package dev.distlock.core.internal.redis;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import org.jspecify.annotations.Nullable;

/** Runs a {@link LuaScript} by {@code EVALSHA} with an {@code EVAL} fallback, on any Lettuce topology. */
final class ScriptCalls {

    private ScriptCalls() {
    }

    /**
     * Runs the script by its SHA and, on {@code NOSCRIPT} (restart, failover, {@code SCRIPT FLUSH}, a cluster node
     * that never saw it), by its body, which also caches it again. When the returned future fails - a caller's
     * timeout included - the underlying commands are cancelled: Lettuce then neither writes them nor replays them
     * after a reconnect, so a call the caller gave up on cannot be executed later.
     */
    static <T> CompletableFuture<T> eval(RedisScriptingAsyncCommands<String, String> commands, LuaScript script,
            ScriptOutputType type, String[] keys, String... args) {
        CompletableFuture<T> bySha = commands.<T>evalsha(script.sha1(), type, keys, args).toCompletableFuture();
        AtomicReference<@Nullable CompletableFuture<T>> byBody = new AtomicReference<>();
        CompletableFuture<T> result = bySha.exceptionallyCompose((ex) -> {
            if (!isNoScript(ex)) {
                return CompletableFuture.failedFuture(ScriptErrors.explain(script, ex));
            }
            CompletableFuture<T> retry = commands.<T>eval(script.body(), type, keys, args).toCompletableFuture();
            byBody.set(retry);
            return retry.exceptionallyCompose((retryEx) -> CompletableFuture.failedFuture(
                    ScriptErrors.explain(script, retryEx)));
        });
        result.whenComplete((ignored, ex) -> {
            if (ex != null) {
                bySha.cancel(false);
                CompletableFuture<T> retry = byBody.get();
                if (retry != null) {
                    retry.cancel(false);
                }
            }
        });
        return result;
    }

    static boolean isNoScript(Throwable ex) {
        Throwable cause = unwrap(ex);
        return cause instanceof RedisNoScriptException
                || (cause.getMessage() != null && cause.getMessage().startsWith("NOSCRIPT"));
    }

    /** Redis Cluster refuses multi-key commands on a slot being migrated while only some keys moved. */
    static boolean isTryAgain(Throwable ex) {
        Throwable cause = unwrap(ex);
        return cause.getMessage() != null && cause.getMessage().startsWith("TRYAGAIN");
    }

    private static Throwable unwrap(Throwable ex) {
        return (ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex;
    }
}
