package dev.distlock.test.memory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.distlock.core.LeaseLoss;
import dev.distlock.core.LeaseLossListener;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockLostException;
import org.jspecify.annotations.Nullable;

/** The lease of a multi-lock: one part per name; lost when any part is, told once. */
final class MemoryMultiLease implements LockLease {

    private final String name;

    private final List<MemoryLease> parts;

    private final List<LeaseLossListener> listeners = new ArrayList<>();

    private @Nullable LeaseLoss loss;

    private boolean closed;

    private @Nullable Runnable whenClosed;

    MemoryMultiLease(String name, List<MemoryLease> parts) {
        this.name = name;
        this.parts = List.copyOf(parts);
        parts.forEach((part) -> part.addLossListener(this::partLost));
    }

    @Override
    public String name() {
        return this.name;
    }

    @Override
    public long fencingToken() {
        return this.parts.get(0).fencingToken();
    }

    @Override
    public Map<String, Long> fencingTokens() {
        Map<String, Long> tokens = new LinkedHashMap<>();
        this.parts.forEach((part) -> tokens.put(part.name(), part.fencingToken()));
        return tokens;
    }

    @Override
    public boolean isHeld() {
        return this.parts.stream().allMatch(LockLease::isHeld);
    }

    @Override
    public Duration remainingValidity() {
        return this.parts.stream().map(LockLease::remainingValidity).min(Duration::compareTo).orElse(Duration.ZERO);
    }

    @Override
    public void addLossListener(LeaseLossListener listener) {
        LeaseLoss already;
        synchronized (this) {
            if (this.closed) {
                return;
            }
            already = this.loss;
            if (already == null) {
                this.listeners.add(listener);
                return;
            }
        }
        listener.leaseLost(already);
    }

    private void partLost(LeaseLoss partLoss) {
        List<LeaseLossListener> toTell;
        synchronized (this) {
            if (this.loss != null || this.closed) {
                return;
            }
            this.loss = partLoss;
            toTell = List.copyOf(this.listeners);
            this.listeners.clear();
        }
        toTell.forEach((listener) -> listener.leaseLost(partLoss));
    }

    void whenClosed(Runnable action) {
        this.whenClosed = action;
    }

    @Override
    public void expireIn(Duration remaining) {
        synchronized (this) {
            if (this.closed) {
                throw new IllegalStateException("The lease on multi-lock '" + this.name + "' was closed; acquire it "
                        + "again");
            }
        }
        for (MemoryLease part : this.parts) {
            if (part.renewedByWatchdog()) {
                throw new IllegalStateException("The lease on lock '" + part.name() + "' of multi-lock '" + this.name
                        + "' is renewed by the watchdog, so it has no end to move; acquire the multi-lock with a "
                        + "lease time");
            }
        }
        RuntimeException failure = null;
        for (MemoryLease part : this.parts) {
            try {
                part.expireIn(remaining);
            }
            catch (IllegalArgumentException ex) {
                throw ex;
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

    @Override
    public void close() {
        synchronized (this) {
            if (this.closed) {
                return;
            }
            this.closed = true;
            this.listeners.clear();
        }
        LockLostException lost = null;
        for (MemoryLease part : this.parts) {
            try {
                part.close();
            }
            catch (LockLostException ex) {
                lost = (lost != null) ? lost : ex;
            }
        }
        Runnable action = this.whenClosed;
        if (action != null) {
            action.run();
        }
        if (lost != null) {
            throw lost;
        }
    }
}
