/**
 * The Redis side of the lock client, and nothing of the lock logic. What it owns:
 * <ul>
 * <li>The gateway: {@link dev.distlock.core.internal.redis.RedisGateway}, the few operations the locks need (run a
 * script, EXISTS, publish settings, subscribe), opened only through
 * {@link dev.distlock.core.internal.redis.RedisGateways}. One implementation over Lettuce, {@code LettuceGateway},
 * with the deployment's difference as a small {@code Topology} strategy: {@code MasterTopology} (standalone and
 * Sentinel: one {@code MasterConnections} set) or {@code ClusterTopology} (slot routing, TRYAGAIN retried, a
 * {@code PUBLISH} that counts one node's listeners; {@code ShardSubscriptions} keeps each shard channel, a
 * {@code ShardChannel}, on its slot's master, a {@code ShardNode}). {@code ConnectingGateway} opens either in the background for a
 * client that starts before its Redis ({@code ClientTargets} names the target in its messages).</li>
 * <li>Sentinel master following: {@code SentinelUris} finds the client's Sentinel URI, {@code SentinelMasterFollower}
 * listens for {@code +switch-master} and checks ({@code FailedMoves} reports moves that keep failing),
 * {@code SentinelMasterLookup} asks every Sentinel where the master is
 * ({@code MasterAddress}), and {@code MasterMover} moves the {@code MasterTopology}'s connection set there.</li>
 * <li>The Lua scripts: {@code LuaScript}, loaded from {@code dev/distlock/core/scripts}, run by EVALSHA with an EVAL
 * fallback in {@code ScriptCalls}, ACL refusals explained by {@code ScriptErrors}.</li>
 * <li>The connection state that lets lock calls fail fast and health checks report:
 * {@link dev.distlock.core.internal.redis.ConnectionStatus}.</li>
 * </ul>
 * Only {@code RedisGateway}, {@code RedisGateways}, {@code LuaScript} and {@code ConnectionStatus} are public, for the
 * rest of the lock client. Not API; may change in any release.
 */
@NullMarked
package dev.distlock.core.internal.redis;

import org.jspecify.annotations.NullMarked;
