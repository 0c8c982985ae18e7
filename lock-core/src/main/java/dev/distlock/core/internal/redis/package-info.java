/**
 * The Redis side of the lock client, and nothing of the lock logic: the {@link
 * dev.distlock.core.internal.redis.RedisGateway} (the few operations the locks need: run a script, EXISTS, publish and
 * subscribe) over Lettuce for standalone and Sentinel ({@code LettuceRedisGateway}, which follows {@code
 * +switch-master} through {@code SentinelMasterFollower} and {@code MasterConnections}), Redis Cluster ({@code
 * LettuceClusterGateway}) and a lazily connecting start ({@code ConnectingGateway}); the Lua scripts ({@code
 * LuaScript}, loaded from {@code dev/distlock/core/scripts}, run by EVALSHA with an EVAL fallback in {@code
 * ScriptCalls}, ACL refusals explained by {@code ScriptErrors}); and the connection state that lets calls fail fast
 * ({@code ConnectionStatus}). Not API; may change in any release.
 */
@NullMarked
package dev.distlock.core.internal.redis;

import org.jspecify.annotations.NullMarked;
