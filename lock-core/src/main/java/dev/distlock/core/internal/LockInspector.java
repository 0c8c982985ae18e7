package dev.distlock.core.internal;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.distlock.core.LockInfo;
import dev.distlock.core.internal.protocol.LockCommands;
import dev.distlock.core.internal.protocol.LockKeys;
import dev.distlock.core.internal.protocol.OwnerTokens;
import dev.distlock.core.internal.protocol.ReadWriteKeys;
import dev.distlock.core.internal.redis.LuaScript;
import io.lettuce.core.ScriptOutputType;

/** Reads what Redis knows about a lock name (one script, one round trip) and adds the calling thread's holds. */
public final class LockInspector {

    private final LockEngine engine;

    public LockInspector(LockEngine engine) {
        this.engine = engine;
    }

    /**
     * Inspects {@code name}. The thread's hold count is taken on the calling thread, before the round trip.
     *
     * @throws IllegalArgumentException if the name is invalid; nothing is sent to Redis
     */
    public CompletableFuture<LockInfo> inspect(String name) {
        LockKeys keys = this.engine.keys(name);
        this.engine.checkOpen(name);
        int threadHolds = currentThreadHoldCount(name);
        ReadWriteKeys rw = ReadWriteKeys.of(keys);
        String[] scriptKeys = { keys.lockKey(), keys.fenceKey(), keys.queueKey(), rw.writeKey(), rw.readersKey(),
                rw.writerQueueKey() };
        CompletableFuture<List<Object>> reply = this.engine.commands().eval(LuaScript.INSPECT, ScriptOutputType.MULTI,
                scriptKeys);
        return reply.thenApply((values) -> toInfo(name, values, threadHolds));
    }

    private int currentThreadHoldCount(String name) {
        return this.engine.threadHolds().openLeases(Thread.currentThread(), name);
    }

    private static LockInfo toInfo(String name, List<Object> values, int threadHolds) {
        LockInfo.Mode mode = switch (String.valueOf(values.get(0))) {
            case "lock" -> LockInfo.Mode.EXCLUSIVE;
            case "write" -> LockInfo.Mode.WRITE;
            case "read" -> LockInfo.Mode.READ;
            default -> LockInfo.Mode.FREE;
        };
        boolean held = mode != LockInfo.Mode.FREE;
        String owner = held ? String.valueOf(values.get(1)) : null;
        long pttl = LockCommands.toLong(values.get(2));
        Duration remaining = (held && pttl > 0) ? Duration.ofMillis(pttl) : Duration.ZERO;
        return new LockInfo(name, mode, owner, OwnerTokens.instanceIdOf(owner), remaining,
                held ? LockCommands.toLong(values.get(3)) : 0, LockCommands.toLong(values.get(4)),
                LockCommands.toLong(values.get(5)), threadHolds);
    }
}
