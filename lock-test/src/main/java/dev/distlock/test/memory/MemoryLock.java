package dev.distlock.test.memory;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.Lock;
import java.util.stream.Collectors;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.RedisLock;
import org.jspecify.annotations.Nullable;

/**
 * A lock of an {@link InMemoryLockClient}: one claim (the reentrant, fair, read or write lock of a name) or several
 * (a multi-lock). Blocking acquisitions are reentrant per thread; asynchronous ones run on the store's threads and
 * are not.
 */
final class MemoryLock implements RedisLock {

    private final LockStore store;

    private final int clientId;

    private final LockClientOptions options;

    private final String name;

    private final List<Claim> claims;

    MemoryLock(LockStore store, int clientId, LockClientOptions options, String name, List<Claim> claims) {
        this.store = store;
        this.clientId = clientId;
        this.options = options;
        this.name = name;
        this.claims = claims;
    }

    @Override
    public String name() {
        return this.name;
    }

    @Override
    public LockLease acquire(Duration waitTime) throws InterruptedException {
        return acquireBlocking(waitTime, null);
    }

    @Override
    public LockLease acquire(Duration waitTime, Duration leaseTime) throws InterruptedException {
        return acquireBlocking(waitTime, checkedLease(leaseTime));
    }

    @Override
    public Optional<LockLease> tryAcquire(Duration waitTime) throws InterruptedException {
        return tryAcquire(waitTime, null);
    }

    @Override
    public Optional<LockLease> tryAcquire(Duration waitTime, @Nullable Duration leaseTime)
            throws InterruptedException {
        try {
            return Optional.of(acquireBlocking(waitTime, (leaseTime != null) ? checkedLease(leaseTime) : null));
        }
        catch (LockNotAcquiredException ex) {
            return Optional.empty();
        }
    }

    @Override
    public CompletionStage<LockLease> acquireAsync(Duration waitTime) {
        return acquireAsync(waitTime, null);
    }

    @Override
    public CompletionStage<LockLease> acquireAsync(Duration waitTime, @Nullable Duration leaseTime) {
        checkedWait(waitTime);
        Duration lease = (leaseTime != null) ? checkedLease(leaseTime) : null;
        Owner owner = new Owner(this.clientId, this.options.instanceId(), null, this.store.nextAttempt());
        CompletableFuture<LockLease> result = new CompletableFuture<>();
        // a caller that completes the future stops the wait at once
        result.whenComplete((value, failure) -> this.store.abandon(owner));
        this.store.executor.execute(() -> {
            try {
                LockLease granted = leaseOf(acquisition().run(owner, waitTime, lease, result::isDone));
                if (!result.complete(granted)) {
                    granted.close();
                }
            }
            catch (Throwable ex) {
                result.completeExceptionally(ex);
            }
        });
        return result;
    }

    @Override
    public boolean isLocked() {
        return this.store.locked(() -> this.claims.stream().anyMatch((claim) -> {
            Slot slot = this.store.slot(claim.side(), claim.name());
            return (claim.side() == Side.EXCLUSIVE) ? slot.writer != null : slot.blocker() != null;
        }));
    }

    @Override
    public boolean isHeldByCurrentThread() {
        Owner owner = threadOwner();
        return this.store.locked(() -> this.claims.stream().allMatch((claim) -> {
            Hold hold = this.store.threadHold(owner, claim.side(), claim.name());
            return hold != null && hold.valid() && !hold.openLeases.isEmpty();
        }));
    }

    @Override
    public boolean forceUnlock() {
        return this.store.locked(() -> this.store.loseAll(this.claims));
    }

    @Override
    public Lock asLock() {
        return RedisLock.lockView(this, this::unlockCurrentThread);
    }

    private LockLease acquireBlocking(Duration waitTime, @Nullable Duration leaseTime) throws InterruptedException {
        checkedWait(waitTime);
        LockLease lease = leaseOf(acquisition().run(threadOwner(), waitTime, leaseTime, () -> false));
        LockStore.ViewKey key = viewKey();
        this.store.locked(() -> {
            this.store.rememberThreadLease(key, lease);
            return null;
        });
        Runnable forget = () -> this.store.locked(() -> {
            this.store.forgetThreadLease(key, lease);
            return null;
        });
        if (lease instanceof MemoryMultiLease multi) {
            multi.whenClosed(forget);
        }
        else {
            ((MemoryLease) lease).whenClosed(forget);
        }
        return lease;
    }

    private void unlockCurrentThread() {
        LockLease innermost = this.store.locked(() -> this.store.innermostThreadLease(viewKey()));
        if (innermost == null) {
            throw new IllegalMonitorStateException("Thread " + Thread.currentThread().getName()
                    + " does not hold lock '" + this.name + "'");
        }
        innermost.close();
    }

    private LockLease leaseOf(List<MemoryLease> parts) {
        return (this.claims.size() == 1) ? parts.get(0) : new MemoryMultiLease(this.name, parts);
    }

    private Acquisition acquisition() {
        return new Acquisition(this.store, this.options, this.name, this.claims);
    }

    private Owner threadOwner() {
        return new Owner(this.clientId, this.options.instanceId(), Thread.currentThread(), 0);
    }

    private LockStore.ViewKey viewKey() {
        String lockKey = this.claims.stream().map((claim) -> claim.side() + ":" + claim.name())
            .collect(Collectors.joining(","));
        return new LockStore.ViewKey(this.clientId, lockKey, Thread.currentThread());
    }

    private static void checkedWait(@Nullable Duration waitTime) {
        if (waitTime == null || waitTime.isNegative()) {
            throw new IllegalArgumentException("waitTime must not be " + ((waitTime == null) ? "null" : "negative, was "
                    + waitTime) + " (use zero for a single attempt)");
        }
    }

    private static Duration checkedLease(@Nullable Duration leaseTime) {
        if (leaseTime == null || leaseTime.compareTo(LockClientOptions.MIN_LEASE_TIME) < 0
                || leaseTime.compareTo(LockClientOptions.MAX_LEASE_TIME) > 0) {
            throw new IllegalArgumentException("leaseTime " + leaseTime + " is outside "
                    + LockClientOptions.MIN_LEASE_TIME + " to " + LockClientOptions.MAX_LEASE_TIME
                    + "; give no lease time for a watchdog-renewed lock that lives as long as its holder");
        }
        return leaseTime;
    }
}
