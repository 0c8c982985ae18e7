package dev.distlock.core.internal.protocol;

import java.util.concurrent.CompletableFuture;

import dev.distlock.core.ReadWriteRedisLock;
import dev.distlock.core.RedisLock;
import dev.distlock.core.internal.LockEngine;
import dev.distlock.core.internal.ProtocolLock;

/** Builds read/write locks and holds what their two sides share. */
public final class ReadWriteProtocols {

    private ReadWriteProtocols() {
    }

    /** The read/write lock with this name. */
    public static ReadWriteRedisLock readWriteLock(LockEngine engine, String name) {
        ReadWriteKeys keys = ReadWriteKeys.of(engine.keys(name));
        WriteProtocol writeProtocol = new WriteProtocol(engine, keys);
        RedisLock read = new ProtocolLock(engine, new ReadProtocol(engine, keys, writeProtocol));
        RedisLock write = new ProtocolLock(engine, writeProtocol);
        return new ReadWriteRedisLock() {
            @Override
            public String name() {
                return keys.names().name();
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

    static CompletableFuture<Boolean> isLocked(LockEngine engine, ReadWriteKeys keys) {
        return engine.commands().exists(keys.writeKey())
            .thenCombine(engine.commands().exists(keys.readersKey()), (writer, readers) -> writer || readers);
    }

    static CompletableFuture<Boolean> forceRelease(LockEngine engine, ReadWriteKeys keys) {
        return ForceRelease.readWrite(engine, keys).thenApply((outcome) -> !outcome.mode().isEmpty());
    }
}
