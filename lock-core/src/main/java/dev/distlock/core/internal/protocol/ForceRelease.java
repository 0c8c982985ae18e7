package dev.distlock.core.internal.protocol;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.distlock.core.internal.LockEngine;
import dev.distlock.core.internal.redis.LuaScript;
import dev.distlock.core.internal.scripts.ForceReleaseArgs;
import dev.distlock.core.internal.scripts.ForceScope;
import io.lettuce.core.ScriptOutputType;

/**
 * Forces a lock name free whoever holds it, in one script ({@code force-release.lua}): reads the holder, removes its
 * hold and hands the lock to the next live queued waiter, so an operator's release can neither evict a holder it did
 * not report nor leave queued waiters asleep.
 */
public final class ForceRelease {

    /**
     * What the script did.
     *
     * @param mode {@code lock}, {@code write}, {@code read}, or empty when nothing was held
     * @param owner the owner of the removed hold, empty when none
     * @param offeredTo the waiter now offered the lock, empty when none
     */
    public record Outcome(String mode, String owner, String offeredTo) {

        /** Parses {@code {mode, released owner, offered to, offer ms}}, the offer time left to the caller. */
        static Outcome parse(List<Object> reply) {
            return new Outcome(String.valueOf(reply.get(0)), String.valueOf(reply.get(1)),
                    String.valueOf(reply.get(2)));
        }
    }

    private ForceRelease() {
    }

    /** Every kind of the name: the reentrant or fair lock first, then the read/write lock. */
    public static CompletableFuture<Outcome> anyKind(LockEngine engine, String name) {
        return run(engine, ReadWriteKeys.of(engine.keys(name)), ForceScope.ANY);
    }

    /** The read/write lock of the name: its writer and every reader. */
    static CompletableFuture<Outcome> readWrite(LockEngine engine, ReadWriteKeys keys) {
        return run(engine, keys, ForceScope.READ_WRITE);
    }

    private static CompletableFuture<Outcome> run(LockEngine engine, ReadWriteKeys rw, ForceScope scope) {
        LockKeys keys = rw.names();
        LockCommands commands = engine.commands();
        CompletableFuture<List<Object>> reply = commands.eval(LuaScript.FORCE_RELEASE, ScriptOutputType.MULTI,
                new String[] { keys.lockKey(), keys.fenceKey(), keys.queueKey(), rw.writeKey(), rw.readersKey(),
                        rw.writerQueueKey() },
                new ForceReleaseArgs(scope, commands.fenceRetentionMillis(), commands.publishCommand(),
                        commands.countsListeners(), keys.channel()).argv());
        return reply.thenApply((values) -> {
            Outcome outcome = Outcome.parse(values);
            long offerMillis = LockCommands.toLong(values.get(3));
            if (outcome.mode().equals("lock")) {
                QueuedProtocol queued = new QueuedProtocol(engine, keys);
                engine.commands().lapsedOffers().watch(engine, keys.name(), keys.lockKey(), outcome.offeredTo(), offerMillis,
                        queued::passOn);
            }
            else if (!outcome.mode().isEmpty()) {
                WriteProtocol writers = new WriteProtocol(engine, rw);
                engine.commands().lapsedOffers().watch(engine, keys.name(), rw.writeKey(), outcome.offeredTo(),
                        offerMillis, writers::passOn);
                engine.localWakeUps().wakeEveryone(keys.channel());
            }
            return outcome;
        });
    }
}
