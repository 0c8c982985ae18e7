package dev.distlock.core;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import dev.distlock.core.internal.LockEngine;
import dev.distlock.core.internal.LockInspector;
import dev.distlock.core.internal.SemaphoreInspector;
import dev.distlock.core.internal.protocol.ForceRelease;
import dev.distlock.core.internal.protocol.OperationTimeouts;
import dev.distlock.core.internal.time.DurationFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's calls of a {@link RedisLockClient}, blocking with the operation timeout: inspect a lock or a
 * semaphore, force a lock free. A failure names the call, the lock and why.
 */
final class OperatorCalls {

    /** The client's logger: a forced release is logged where operators find the client's lines. */
    private static final Logger logger = LoggerFactory.getLogger(RedisLockClient.class);

    private final LockEngine engine;

    OperatorCalls(LockEngine engine) {
        this.engine = engine;
    }

    LockInfo inspect(String name) {
        return await(new LockInspector(this.engine).inspect(name), name, "Inspecting lock '" + name + "' failed");
    }

    SemaphoreInfo inspectSemaphore(String name) {
        return await(new SemaphoreInspector(this.engine).inspect(name), name,
                "Inspecting semaphore '" + name + "' failed");
    }

    ForcedRelease forceRelease(String name) {
        this.engine.keys(name);
        ForceRelease.Outcome outcome = await(ForceRelease.anyKind(this.engine, name), name, "Force-releasing lock '"
                + name + "' failed (it may or may not have been released; inspect it)");
        LockInfo.Mode mode = switch (outcome.mode()) {
            case "lock" -> LockInfo.Mode.EXCLUSIVE;
            case "write" -> LockInfo.Mode.WRITE;
            case "read" -> LockInfo.Mode.READ;
            default -> LockInfo.Mode.FREE;
        };
        String owner = outcome.owner().isEmpty() ? null : outcome.owner();
        if (owner != null) {
            logger.warn("Lock '{}' force-released: {} hold of owner {} removed{}", name, mode, owner,
                    outcome.offeredTo().isEmpty() ? "" : ", offered to waiter " + outcome.offeredTo());
        }
        return new ForcedRelease(name, mode, owner, LockInfo.instanceIdOf(owner),
                outcome.offeredTo().isEmpty() ? null : outcome.offeredTo());
    }

    private <T> T await(CompletableFuture<T> reply, String name, String failed) {
        try {
            return reply.join();
        }
        catch (CompletionException ex) {
            Throwable cause = ex.getCause();
            String why = OperationTimeouts.isTimeout(cause)
                    ? "Redis did not answer within " + DurationFormat.format(this.engine.options().operationTimeout())
                    : String.valueOf(cause);
            throw new LockOperationException(name, failed + ": " + why, cause);
        }
    }
}
