package dev.distlock.core.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.Lock;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.RedisLock;
import dev.distlock.core.internal.hold.MultiLease;
import dev.distlock.core.internal.time.Durations;
import org.jspecify.annotations.Nullable;

/**
 * All-or-nothing over several locks. The locks are always taken in one order (sorted by Redis key, duplicates
 * dropped), so two callers with overlapping sets cannot deadlock; when one cannot be had within what is left of the
 * wait time, those already taken are released. Each name is its own key and script call, so the names may live in
 * different Redis Cluster slots.
 *
 * <p>An asynchronous acquisition that the caller completes first (cancel, {@code orTimeout}, ...) cancels the member
 * in flight and releases the members already taken; see {@link AsyncMultiAcquisition}.
 */
public final class MultiLock implements RedisLock {

    private final List<ProtocolLock> locks;

    private final String name;

    private MultiLock(List<ProtocolLock> locks) {
        this.locks = locks;
        this.name = String.join(",", locks.stream().map(ProtocolLock::name).toList());
    }

    /**
     * The multi-lock over the reentrant locks with these names.
     *
     * @throws IllegalArgumentException if no name is given or one is invalid
     */
    public static MultiLock of(LockEngine engine, List<String> names) {
        if (names == null || names.isEmpty()) {
            throw new IllegalArgumentException("A multi-lock needs at least one lock name");
        }
        LinkedHashMap<String, String> byKey = new LinkedHashMap<>();
        for (String name : names) {
            byKey.putIfAbsent(engine.keys(name).lockKey(), name);
        }
        List<ProtocolLock> ordered = byKey.entrySet().stream()
            .sorted(java.util.Map.Entry.comparingByKey(Comparator.naturalOrder()))
            .map((entry) -> ProtocolLock.reentrant(engine, entry.getValue()))
            .toList();
        return new MultiLock(ordered);
    }

    @Override
    public String name() {
        return this.name;
    }

    @Override
    public LockLease acquire(Duration waitTime) throws InterruptedException {
        return tryAcquire(waitTime).orElseThrow(() -> new LockNotAcquiredException(this.name, waitTime));
    }

    @Override
    public LockLease acquire(Duration waitTime, Duration leaseTime) throws InterruptedException {
        return tryAcquire(waitTime, leaseTime).orElseThrow(() -> new LockNotAcquiredException(this.name, waitTime));
    }

    @Override
    public Optional<LockLease> tryAcquire(Duration waitTime) throws InterruptedException {
        return acquireAll(waitTime, null);
    }

    @Override
    public Optional<LockLease> tryAcquire(Duration waitTime, Duration leaseTime) throws InterruptedException {
        Durations.requirePositive("leaseTime", leaseTime);
        return acquireAll(waitTime, leaseTime);
    }

    private Optional<LockLease> acquireAll(Duration waitTime, @Nullable Duration leaseTime)
            throws InterruptedException {
        Durations.requireNonNegative("waitTime", waitTime);
        long deadline = System.nanoTime() + Durations.saturatedNanos(waitTime);
        List<LockLease> taken = new ArrayList<>(this.locks.size());
        try {
            for (ProtocolLock lock : this.locks) {
                Duration remaining = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
                Optional<LockLease> lease = (leaseTime != null) ? lock.tryAcquire(remaining, leaseTime)
                        : lock.tryAcquire(remaining);
                if (lease.isEmpty()) {
                    MultiLease.closeAll(taken);
                    return Optional.empty();
                }
                taken.add(lease.get());
            }
        }
        catch (InterruptedException | RuntimeException ex) {
            MultiLease.closeAll(taken);
            throw ex;
        }
        return Optional.of(new MultiLease(this.name, taken));
    }

    @Override
    public CompletionStage<LockLease> acquireAsync(Duration waitTime) {
        return acquireAllAsync(waitTime, null);
    }

    @Override
    public CompletionStage<LockLease> acquireAsync(Duration waitTime, Duration leaseTime) {
        Durations.requirePositive("leaseTime", leaseTime);
        return acquireAllAsync(waitTime, leaseTime);
    }

    private CompletionStage<LockLease> acquireAllAsync(Duration waitTime, @Nullable Duration leaseTime) {
        Durations.requireNonNegative("waitTime", waitTime);
        return new AsyncMultiAcquisition(this.name, this.locks, waitTime, leaseTime).start();
    }

    /** The holds of the members, in acquisition order. */
    List<ReentryKey> reentryKeys() {
        return this.locks.stream().map(ProtocolLock::reentryKey).toList();
    }

    @Override
    public boolean isLocked() {
        return this.locks.stream().anyMatch(ProtocolLock::isLocked);
    }

    @Override
    public boolean isHeldByCurrentThread() {
        return this.locks.stream().allMatch(ProtocolLock::isHeldByCurrentThread);
    }

    @Override
    public boolean forceUnlock() {
        boolean any = false;
        for (ProtocolLock lock : this.locks) {
            any |= lock.forceUnlock();
        }
        return any;
    }

    @Override
    public Lock asLock() {
        return new LockView(this, () -> {
            for (int i = this.locks.size() - 1; i >= 0; i--) {
                this.locks.get(i).unlockCurrentThread();
            }
        });
    }
}
