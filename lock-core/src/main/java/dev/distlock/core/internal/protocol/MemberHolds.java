package dev.distlock.core.internal.protocol;

import java.util.concurrent.CompletableFuture;

import dev.distlock.core.internal.redis.LuaScript;
import dev.distlock.core.internal.scripts.RenewArgs;
import io.lettuce.core.ScriptOutputType;

/**
 * Holds stored as members {@code 'owner|token'} of a sorted set, each with its own lease as its score: read holds
 * ({@link ReadProtocol}) and semaphore permits ({@link SemaphoreProtocol}).
 */
final class MemberHolds {

    private MemberHolds() {
    }

    /** The attempt with its grant, if any, named as the member it is stored as: renewals and the release use it. */
    static AttemptResult asMember(AttemptResult result, String owner) {
        Grant grant = result.grant();
        return (grant == null) ? result : new AttemptResult(new Grant(owner + "|" + grant.fencingToken(),
                grant.fencingToken(), grant.sentAtNanos()), result.holderPttlMillis());
    }

    /**
     * Extends the lease of {@code member} in {@code setKey}.
     *
     * @return true if the member was still there
     */
    static CompletableFuture<Boolean> renew(LockCommands commands, String setKey, String member, long leaseMillis) {
        CompletableFuture<Long> reply = commands.eval(LuaScript.RENEW_MEMBER, ScriptOutputType.INTEGER,
                new String[] { setKey }, new RenewArgs(member, leaseMillis).argv());
        return reply.thenApply((owned) -> owned == 1L);
    }
}
