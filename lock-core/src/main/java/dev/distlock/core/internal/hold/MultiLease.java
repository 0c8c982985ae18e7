package dev.distlock.core.internal.hold;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.distlock.core.LeaseLossListener;
import dev.distlock.core.LockLease;
import org.jspecify.annotations.Nullable;

/** The lease of a {@code MultiLock}: held while every part is held; closing releases the parts in reverse order. */
public final class MultiLease implements LockLease {

    private final String name;

    private final List<LockLease> parts;

    private final AtomicBoolean closed = new AtomicBoolean();

    public MultiLease(String name, List<LockLease> parts) {
        this.name = name;
        this.parts = List.copyOf(parts);
    }

    @Override
    public String name() {
        return this.name;
    }

    /** The lease of each member, in acquisition order. */
    public List<LockLease> parts() {
        return this.parts;
    }

    /** The token of the first lock in acquisition order; see {@link #fencingTokens()} for all of them. */
    @Override
    public long fencingToken() {
        return this.parts.get(0).fencingToken();
    }

    @Override
    public Map<String, Long> fencingTokens() {
        Map<String, Long> tokens = new LinkedHashMap<>();
        for (LockLease part : this.parts) {
            tokens.put(part.name(), part.fencingToken());
        }
        return Collections.unmodifiableMap(tokens);
    }

    @Override
    public boolean isHeld() {
        return !this.closed.get() && this.parts.stream().allMatch(LockLease::isHeld);
    }

    @Override
    public Duration remainingValidity() {
        return this.parts.stream().map(LockLease::remainingValidity).min(Duration::compareTo).orElse(Duration.ZERO);
    }

    /**
     * Moves the end of every member's lease, in acquisition order. A member renewed by the watchdog (one this thread
     * already held without a lease time) refuses it before any member is moved. A member found lost does not stop the
     * others: the first failure is thrown once all were tried, the others suppressed.
     */
    @Override
    public void expireIn(Duration remaining) {
        if (this.closed.get()) {
            throw new IllegalStateException("The lease on multi-lock '" + this.name + "' was closed; acquire it again");
        }
        for (LockLease part : this.parts) {
            if (part instanceof DefaultLockLease member && member.renewedByWatchdog()) {
                throw new IllegalStateException("The lease on lock '" + part.name() + "' of multi-lock '" + this.name
                        + "' is renewed by the watchdog, so it has no end to move; acquire the multi-lock with a "
                        + "lease time on a thread that does not hold its locks yet");
            }
        }
        RuntimeException failure = null;
        for (LockLease part : this.parts) {
            try {
                part.expireIn(remaining);
            }
            catch (IllegalArgumentException ex) {
                // Bad input is refused by the first member before any round trip.
                throw ex;
            }
            catch (RuntimeException ex) {
                failure = withSuppressed(failure, ex);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public void addLossListener(LeaseLossListener listener) {
        AtomicBoolean told = new AtomicBoolean();
        for (LockLease part : this.parts) {
            part.addLossListener((loss) -> {
                if (told.compareAndSet(false, true)) {
                    listener.leaseLost(loss);
                }
            });
        }
    }

    @Override
    public void close() {
        if (this.closed.compareAndSet(false, true)) {
            closeAll(this.parts);
        }
    }

    @Override
    public CompletionStage<Void> closeAsync() {
        if (!this.closed.compareAndSet(false, true)) {
            return CompletableFuture.completedFuture(null);
        }
        // All parts are released together; the first failure (in reverse order) is reported, others suppressed.
        List<CompletableFuture<Void>> parts = new ArrayList<>();
        for (int i = this.parts.size() - 1; i >= 0; i--) {
            parts.add(this.parts.get(i).closeAsync().toCompletableFuture());
        }
        return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).handle((ignored, ex) -> {
            RuntimeException failure = null;
            for (CompletableFuture<Void> part : parts) {
                if (part.isCompletedExceptionally()) {
                    Throwable cause = part.handle((v, e) -> (e instanceof CompletionException) ? e.getCause() : e)
                        .join();
                    RuntimeException error = (cause instanceof RuntimeException runtime) ? runtime
                            : new CompletionException(cause);
                    failure = withSuppressed(failure, error);
                }
            }
            if (failure != null) {
                throw failure;
            }
            return null;
        });
    }

    /** Closes every lease in reverse order; the first failure is thrown with the others suppressed. */
    public static void closeAll(List<LockLease> leases) {
        RuntimeException failure = null;
        for (int i = leases.size() - 1; i >= 0; i--) {
            try {
                leases.get(i).close();
            }
            catch (RuntimeException ex) {
                failure = withSuppressed(failure, ex);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** The first failure with {@code next} suppressed by it, or {@code next} when it is the first. */
    private static RuntimeException withSuppressed(@Nullable RuntimeException first, RuntimeException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}
