package dev.distlock.core.internal;

import java.time.Duration;
import java.util.List;

/** Builds RedLock protocols for {@code dev.distlock.core.RedLockClient}. */
public final class RedLocks {

    private RedLocks() {
    }

    public static LockProtocol protocol(LockEngine engine, List<RedisGateway> nodes, String name,
            Duration nodeTimeout) {
        return new RedLockProtocol(engine, nodes, engine.keys(name), nodeTimeout);
    }
}
