package dev.distlock.core.internal;

import dev.distlock.core.ReadWriteRedisLock;
import dev.distlock.core.RedisLock;
import dev.distlock.core.internal.protocol.ReadWriteProtocols;

/** Builds read/write locks: one {@code ProtocolLock} per side, over the protocols {@link ReadWriteProtocols} makes. */
public final class ReadWriteLocks {

    private ReadWriteLocks() {
    }

    /** The read/write lock with this name. */
    public static ReadWriteRedisLock readWriteLock(LockEngine engine, String name) {
        ReadWriteProtocols.Sides sides = ReadWriteProtocols.of(engine, name);
        RedisLock read = new ProtocolLock(engine, sides.read());
        RedisLock write = new ProtocolLock(engine, sides.write());
        return new ReadWriteRedisLock() {
            @Override
            public String name() {
                return sides.name();
            }

            @Override
            public RedisLock readLock() {
                return read;
            }

            @Override
            public RedisLock writeLock() {
                return write;
            }
        };
    }
}
