package dev.distlock.core.internal;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.RedisSemaphore;
import dev.distlock.core.SemaphoreInfo;
import dev.distlock.core.internal.hold.DefaultLockLease;
import dev.distlock.core.internal.hold.Hold;
import dev.distlock.core.internal.hold.HoldRelease;
import dev.distlock.core.internal.protocol.Grant;
import dev.distlock.core.internal.protocol.SemaphoreKeys;
import dev.distlock.core.internal.protocol.SemaphoreProtocol;
import dev.distlock.core.internal.time.Durations;
import dev.distlock.core.internal.waiting.AcquireOperation;
import org.jspecify.annotations.Nullable;

/**
 * A {@link RedisSemaphore} over the {@link SemaphoreProtocol}: every acquisition is its own {@link Hold}, watched by
 * the client's watchdog and handed out as a lease, never shared between acquisitions of one thread.
 */
public final class ProtocolSemaphore implements RedisSemaphore {

    private final LockEngine engine;

    private final SemaphoreProtocol protocol;

    private final int declaredPermits;

    private final HoldRelease release;

    private final BlockingReplies replies;

    private ProtocolSemaphore(LockEngine engine, SemaphoreProtocol protocol, int declaredPermits) {
        this.engine = engine;
        this.protocol = protocol;
        this.declaredPermits = declaredPermits;
        this.release = new HoldRelease(engine, protocol);
        this.replies = new BlockingReplies(protocol.lockName(), engine.options().operationTimeout());
    }

    /**
     * The semaphore {@code name} declaring {@code permits} permits.
     *
     * @throws IllegalArgumentException if the name is invalid or {@code permits} is less than 1
     */
    public static ProtocolSemaphore of(LockEngine engine, String name, int permits) {
        SemaphoreKeys keys = SemaphoreKeys.of(engine.keys(name));
        requirePermits(name, permits);
        long keepAliveMillis = 3 * engine.options().maxBackoff().toMillis()
                + 2 * engine.options().operationTimeout().toMillis();
        String channel = keys.names().channel();
        SemaphoreProtocol protocol = new SemaphoreProtocol(engine.commands(), keys, permits, keepAliveMillis,
                () -> engine.localWakeUps().wakeEveryone(channel));
        return new ProtocolSemaphore(engine, protocol, permits);
    }

    @Override
    public String name() {
        return this.protocol.lockName();
    }

    @Override
    public int declaredPermits() {
        return this.declaredPermits;
    }

    @Override
    public LockLease acquire(Duration waitTime) throws InterruptedException {
        return acquireBlocking(waitTime, null);
    }

    @Override
    public LockLease acquire(Duration waitTime, Duration leaseTime) throws InterruptedException {
        Durations.requirePositive("leaseTime", leaseTime);
        return acquireBlocking(waitTime, leaseTime);
    }

    @Override
    public Optional<LockLease> tryAcquire(Duration waitTime) throws InterruptedException {
        try {
            return Optional.of(acquireBlocking(waitTime, null));
        }
        catch (LockNotAcquiredException ex) {
            return Optional.empty();
        }
    }

    private LockLease acquireBlocking(Duration waitTime, @Nullable Duration leaseTime) throws InterruptedException {
        Durations.requireNonNegative("waitTime", waitTime);
        long leaseMillis = (leaseTime != null) ? Durations.leaseMillis("leaseTime", leaseTime)
                : this.engine.options().watchdogLease().toMillis();
        this.engine.checkOpen(name());
        if (Thread.interrupted()) {
            throw new InterruptedException("Interrupted before acquiring a permit of semaphore '" + name() + "'");
        }
        CompletableFuture<Grant> result = new AcquireOperation(this.engine.waiting(), this.protocol, leaseMillis, "",
                waitTime).start();
        Grant grant;
        try {
            grant = this.replies.awaitGrant(result, waitTime, this::abandon, () -> "Acquiring a permit of semaphore '"
                    + name() + "' did not finish within its wait time plus the operation timeout; a possible grant is"
                    + " being returned");
        }
        catch (LockNotAcquiredException ex) {
            throw LockNotAcquiredException.noPermit(name(), waitTime);
        }
        // The thread is named for dashboards only: a permit is never recorded for reentrancy.
        Hold hold = new Hold(this.protocol, grant, leaseMillis, leaseTime == null, Thread.currentThread());
        this.engine.watchdog().watch(hold);
        return new DefaultLockLease(hold, this.release::releaseOneAsync,
                DefaultLockLease.TokenMinter.MINTED_WITH_GRANT, new HoldEndMoves(this.replies));
    }

    /** Gives up an acquisition; a grant that already arrived is returned (one still in flight is, on arrival). */
    private void abandon(CompletableFuture<Grant> result) {
        if (!result.cancel(false) && !result.isCompletedExceptionally()) {
            this.engine.cleanup().releaseQuietly(this.protocol, result.join().owner());
        }
    }

    @Override
    public int setPermits(int permits) {
        requirePermits(name(), permits);
        this.engine.checkOpen(name());
        return Math.toIntExact(this.replies.awaitUninterruptibly(this.protocol.setPermits(permits)));
    }

    @Override
    public SemaphoreInfo inspect() {
        return this.replies.awaitUninterruptibly(new SemaphoreInspector(this.engine).inspect(name()));
    }

    private static void requirePermits(String name, int permits) {
        if (permits < 1) {
            throw new IllegalArgumentException("Semaphore '" + name + "' needs at least 1 permit, was " + permits
                    + "; to stop granting permits for a while, hold them or lower the count to 1");
        }
    }
}
