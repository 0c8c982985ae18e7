package dev.distlock.core.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

import dev.distlock.core.LockLease;
import dev.distlock.core.internal.MultiLock;
import dev.distlock.core.internal.ProtocolLock;
import dev.distlock.core.internal.hold.MultiLease;
import dev.distlock.core.internal.time.Durations;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One asynchronous all-or-nothing acquisition of a {@link MultiLock}: the members are acquired one after the other,
 * in the multi-lock's order, within one deadline.
 *
 * <p>The returned future is the arbiter. When anyone but this acquisition completes it (cancel, {@code orTimeout},
 * {@code completeOnTimeout}, {@code complete}), the member in flight is cancelled, which abandons it and releases a
 * grant that raced the cancellation, and the members already taken are released. A member that fails fails the
 * whole acquisition and releases the members taken, the same way.
 */
final class AsyncMultiAcquisition {

    private static final Logger logger = LoggerFactory.getLogger(AsyncMultiAcquisition.class);

    private final String name;

    private final List<ProtocolLock> locks;

    private final @Nullable Duration leaseTime;

    private final long deadlineNanos;

    private final CompletableFuture<LockLease> result = new CompletableFuture<>();

    private final ReentrantLock guard = new ReentrantLock();

    // Guarded by this.guard.
    private final List<LockLease> taken = new ArrayList<>();

    private boolean abandoned;

    private @Nullable CompletableFuture<LockLease> inFlight;

    private @Nullable MultiLease granted;

    public AsyncMultiAcquisition(String name, List<ProtocolLock> locks, Duration waitTime,
            @Nullable Duration leaseTime) {
        this.name = name;
        this.locks = locks;
        this.leaseTime = leaseTime;
        this.deadlineNanos = System.nanoTime() + Durations.saturatedNanos(waitTime);
    }

    public CompletableFuture<LockLease> start() {
        this.result.whenComplete(this::onCompleted);
        acquireMember(0);
        return this.result;
    }

    private void acquireMember(int index) {
        if (index == this.locks.size()) {
            grantAll();
            return;
        }
        ProtocolLock lock = this.locks.get(index);
        Duration remaining = Duration.ofNanos(Math.max(0, this.deadlineNanos - System.nanoTime()));
        CompletableFuture<LockLease> member;
        try {
            member = ((this.leaseTime != null) ? lock.acquireAsync(remaining, this.leaseTime)
                    : lock.acquireAsync(remaining)).toCompletableFuture();
        }
        catch (RuntimeException ex) {
            this.result.completeExceptionally(ex);
            return;
        }
        boolean cancel;
        this.guard.lock();
        try {
            this.inFlight = member;
            cancel = this.abandoned;
        }
        finally {
            this.guard.unlock();
        }
        if (cancel) {
            member.cancel(false);
            return;
        }
        member.whenComplete((lease, ex) -> memberDone(index, lease, ex));
    }

    /** Every member is taken: hands out the multi-lease unless the acquisition was abandoned meanwhile. */
    private void grantAll() {
        MultiLease lease;
        this.guard.lock();
        try {
            if (this.abandoned) {
                return;
            }
            lease = new MultiLease(this.name, this.taken);
            this.granted = lease;
        }
        finally {
            this.guard.unlock();
        }
        // If the caller completed the future in between, onCompleted releases what was taken.
        this.result.complete(lease);
    }

    /** A member's acquisition ended: keep its lease and go on, or fail, or release it when abandoned. */
    private void memberDone(int index, @Nullable LockLease lease, @Nullable Throwable ex) {
        if (ex != null) {
            this.result.completeExceptionally(ex);
            return;
        }
        boolean keep;
        this.guard.lock();
        try {
            keep = !this.abandoned;
            if (keep) {
                this.taken.add(lease);
            }
        }
        finally {
            this.guard.unlock();
        }
        if (keep) {
            acquireMember(index + 1);
        }
        else {
            releaseLater(List.of(lease));
        }
    }

    /** Runs once, on whichever completion came first; releases everything unless the multi-lease was handed out. */
    private void onCompleted(@Nullable LockLease lease, @Nullable Throwable ex) {
        List<LockLease> toRelease;
        CompletableFuture<LockLease> member;
        this.guard.lock();
        try {
            if (lease != null && lease == this.granted) {
                return;
            }
            this.abandoned = true;
            toRelease = List.copyOf(this.taken);
            this.taken.clear();
            member = this.inFlight;
        }
        finally {
            this.guard.unlock();
        }
        if (member != null) {
            member.cancel(false);
        }
        releaseLater(toRelease);
    }

    /**
     * Releases without blocking: the completing thread may be the caller's, a timer's or a pool's, and a release that
     * waited for Redis there could hold up the very completions it waits for.
     */
    private void releaseLater(List<LockLease> leases) {
        for (LockLease lease : leases) {
            lease.closeAsync().whenComplete((ignored, ex) -> {
                if (ex != null) {
                    logger.warn("Releasing lock '{}' taken by an abandoned acquisition of multi-lock '{}' failed: {}",
                            lease.name(), this.name, ex.toString());
                }
            });
        }
    }
}
