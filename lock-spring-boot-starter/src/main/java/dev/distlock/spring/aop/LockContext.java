package dev.distlock.spring.aop;

import java.util.Optional;

import dev.distlock.core.LockLease;
import org.jspecify.annotations.Nullable;

import org.springframework.core.NamedThreadLocal;

/**
 * Gives a {@link DistributedLock @DistributedLock} method access to the lease it runs under: its fencing token, whether
 * it is still held, its remaining validity.
 *
 * <pre>{@code
 * @DistributedLock(name = "stock", key = "#sku")
 * public void restock(String sku, int amount) {
 *     LockLease lease = LockContext.currentLease().orElseThrow();
 *     inventory.write(sku, amount, lease.fencingToken());
 * }
 * }</pre>
 *
 * <p>The lease is bound to the calling thread for the duration of the advised call, from just after the lock is
 * acquired until just before it is released; a nested advised call binds its own lease and restores the outer one
 * when it returns. Work handed to other threads does not see it (pass the lease or its token explicitly). Do not
 * close the lease: the advice releases it.
 */
public final class LockContext {

    private static final ThreadLocal<@Nullable LockLease> CURRENT = new NamedThreadLocal<>("Current distributed lock");

    private LockContext() {
    }

    /** The lease of the innermost {@code @DistributedLock} call running on this thread, or empty outside one. */
    public static Optional<LockLease> currentLease() {
        return Optional.ofNullable(CURRENT.get());
    }

    /** Binds {@code lease} to this thread and returns the lease it replaces, to be given to {@link #restore}. */
    static @Nullable LockLease bind(LockLease lease) {
        LockLease previous = CURRENT.get();
        CURRENT.set(lease);
        return previous;
    }

    static void restore(@Nullable LockLease previous) {
        if (previous == null) {
            CURRENT.remove();
        }
        else {
            CURRENT.set(previous);
        }
    }
}
