package dev.distlock.core.internal.protocol;

import java.util.concurrent.CompletableFuture;

import dev.distlock.core.internal.LockEngine;

/** Builds the two sides of a read/write lock and holds what they share. */
public final class ReadWriteProtocols {

    private ReadWriteProtocols() {
    }

    /** The read and write protocols of the read/write lock with this name. */
    public static Sides of(LockEngine engine, String name) {
        ReadWriteKeys keys = ReadWriteKeys.of(engine.keys(name));
        WriteProtocol writeProtocol = new WriteProtocol(engine, keys);
        return new Sides(keys.names().name(), new ReadProtocol(engine, keys, writeProtocol), writeProtocol);
    }

    static CompletableFuture<Boolean> isLocked(LockEngine engine, ReadWriteKeys keys) {
        return engine.commands().exists(keys.writeKey())
            .thenCombine(engine.commands().exists(keys.readersKey()), (writer, readers) -> writer || readers);
    }

    static CompletableFuture<Boolean> forceRelease(LockEngine engine, ReadWriteKeys keys) {
        return ForceRelease.readWrite(engine, keys).thenApply((outcome) -> !outcome.mode().isEmpty());
    }

    /** The two sides of one read/write lock. */
    public record Sides(String name, RacingProtocol read, HandoffProtocol write) {
    }
}
