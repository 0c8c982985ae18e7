package dev.distlock.core.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.distlock.core.SemaphoreInfo;
import dev.distlock.core.internal.protocol.LockCommands;
import dev.distlock.core.internal.protocol.OwnerTokens;
import dev.distlock.core.internal.protocol.SemaphoreKeys;
import dev.distlock.core.internal.protocol.SemaphoreProtocol;

/** Reads what Redis knows about a semaphore name (one script, one round trip). */
public final class SemaphoreInspector {

    private final LockEngine engine;

    public SemaphoreInspector(LockEngine engine) {
        this.engine = engine;
    }

    /**
     * Inspects {@code name}.
     *
     * @throws IllegalArgumentException if the name is invalid; nothing is sent to Redis
     */
    public CompletableFuture<SemaphoreInfo> inspect(String name) {
        SemaphoreKeys keys = SemaphoreKeys.of(this.engine.keys(name));
        this.engine.checkOpen(name);
        return SemaphoreProtocol.inspect(this.engine.commands(), keys).thenApply((values) -> toInfo(name, values));
    }

    private static SemaphoreInfo toInfo(String name, List<Object> values) {
        List<SemaphoreInfo.Holder> holders = new ArrayList<>();
        List<?> permits = (List<?>) values.get(1);
        for (int i = 0; i + 1 < permits.size(); i += 2) {
            String permit = String.valueOf(permits.get(i));
            int bar = permit.lastIndexOf('|');
            String owner = permit.substring(0, bar);
            holders.add(new SemaphoreInfo.Holder(owner, OwnerTokens.instanceIdOf(owner),
                    Long.parseLong(permit.substring(bar + 1)),
                    Duration.ofMillis(Math.max(0, LockCommands.toLong(permits.get(i + 1))))));
        }
        List<String> waiters = ((List<?>) values.get(2)).stream().map(String::valueOf).toList();
        return new SemaphoreInfo(name, Math.toIntExact(LockCommands.toLong(values.get(0))), holders, waiters);
    }
}
