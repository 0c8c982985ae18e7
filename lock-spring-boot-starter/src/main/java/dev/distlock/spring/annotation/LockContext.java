package dev.distlock.spring.annotation;

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

    /**
     * Runs {@code call} with {@code lease} as this thread's current lease, and restores the lease it replaced (or
     * none) when the call returns or throws. The {@code @DistributedLock} advice runs every advised method this way;
     * a test can use it to run code that reads {@link #currentLease()} under a lease of its own.
     *
     * @return what {@code call} returned
     * @throws Throwable what {@code call} threw
     */
    public static <T extends @Nullable Object> T callWith(LockLease lease, Call<T> call) throws Throwable {
        LockLease previous = CURRENT.get();
        CURRENT.set(lease);
        try {
            return call.call();
        }
        finally {
            if (previous == null) {
                CURRENT.remove();
            }
            else {
                CURRENT.set(previous);
            }
        }
    }

    /** Work run under a lease by {@link #callWith}; may throw anything, as an advised method may. */
    @FunctionalInterface
    public interface Call<T extends @Nullable Object> {

        /** Runs the work. */
        T call() throws Throwable;
    }
}
