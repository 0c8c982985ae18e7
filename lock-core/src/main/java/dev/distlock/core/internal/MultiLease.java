package dev.distlock.core.internal;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.distlock.core.LeaseLossListener;
import dev.distlock.core.LockLease;

/** The lease of a {@link MultiLock}: held while every part is held; closing releases the parts in reverse order. */
final class MultiLease implements LockLease {

    private final String name;

    private final List<LockLease> parts;

    private final AtomicBoolean closed = new AtomicBoolean();

    MultiLease(String name, List<LockLease> parts) {
        this.name = name;
        this.parts = List.copyOf(parts);
    }

    @Override
    public String name() {
        return this.name;
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

    /** Closes every lease in reverse order; the first failure is thrown with the others suppressed. */
    static void closeAll(List<LockLease> leases) {
        RuntimeException failure = null;
        for (int i = leases.size() - 1; i >= 0; i--) {
            try {
                leases.get(i).close();
            }
            catch (RuntimeException ex) {
                if (failure == null) {
                    failure = ex;
                }
                else {
                    failure.addSuppressed(ex);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
