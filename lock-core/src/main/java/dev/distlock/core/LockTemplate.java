package dev.distlock.core;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

import dev.distlock.core.internal.Durations;
import org.jspecify.annotations.Nullable;

/**
 * Runs code while holding a lock, the way {@code TransactionTemplate} runs it in a transaction.
 *
 * <pre>{@code
 * // callback: acquire (waiting up to the default wait time), run, release
 * Receipt receipt = lockTemplate.execute("order:" + id, (lease) -> reserve(id, lease.fencingToken()));
 *
 * // try: empty when the lock stayed busy for the wait time
 * Optional<Receipt> maybe = lockTemplate.tryExecute("order:" + id, (lease) -> reserve(id, lease.fencingToken()));
 *
 * // lease: try-with-resources
 * try (LockLease lease = lockTemplate.acquire("order:" + id)) {
 *     reserve(id, lease.fencingToken());
 * }
 * }</pre>
 *
 * <p>The lock is released after the callback returns or throws. If the lease was lost while the callback ran, the
 * {@link LostLeasePolicy} decides: by default the caller gets a {@link LockLostException} instead of the result.
 * Interrupts while waiting become {@link LockInterruptedException} with the interrupt flag set again.
 */
public final class LockTemplate {

    /** Wait time used when none is configured. */
    public static final Duration DEFAULT_WAIT_TIME = Duration.ofSeconds(5);

    private final RedisLockClient client;

    private final Duration defaultWaitTime;

    private final @Nullable Duration defaultLeaseTime;

    private final LostLeasePolicy lostLeasePolicy;

    /** A template waiting {@link #DEFAULT_WAIT_TIME}, with watchdog leases, failing on a lost lease. */
    public LockTemplate(RedisLockClient client) {
        this(client, DEFAULT_WAIT_TIME, null, LostLeasePolicy.FAIL);
    }

    /**
     * @param client the lock client
     * @param defaultWaitTime how long to wait when a call gives no wait time (zero: one attempt)
     * @param defaultLeaseTime fixed lease when a call gives none, or null for watchdog-renewed leases
     * @param lostLeasePolicy what to do when a lease is lost while the callback runs
     */
    public LockTemplate(RedisLockClient client, Duration defaultWaitTime, @Nullable Duration defaultLeaseTime,
            LostLeasePolicy lostLeasePolicy) {
        this.client = Objects.requireNonNull(client, "client must not be null");
        this.defaultWaitTime = Durations.requireNonNegative("defaultWaitTime", defaultWaitTime);
        if (defaultLeaseTime != null) {
            Durations.leaseMillis("defaultLeaseTime", defaultLeaseTime);
        }
        this.defaultLeaseTime = defaultLeaseTime;
        this.lostLeasePolicy = Objects.requireNonNull(lostLeasePolicy, "lostLeasePolicy must not be null");
    }

    /** How long calls without an explicit wait time wait. */
    public Duration defaultWaitTime() {
        return this.defaultWaitTime;
    }

    /** The fixed lease of calls without one, or null for watchdog-renewed leases. */
    public @Nullable Duration defaultLeaseTime() {
        return this.defaultLeaseTime;
    }

    /** What happens when a lease is lost while a callback runs. */
    public LostLeasePolicy lostLeasePolicy() {
        return this.lostLeasePolicy;
    }

    /** The client this template uses. */
    public RedisLockClient client() {
        return this.client;
    }

    /**
     * Runs {@code action} holding the lock {@code name}, waiting up to the default wait time.
     *
     * @throws LockNotAcquiredException if the lock stayed busy for the wait time; the action did not run
     * @throws LockLostException if the lease was lost during the action (policy {@code FAIL} or {@code INTERRUPT})
     */
    public <T extends @Nullable Object, E extends Throwable> T execute(String name, LockCallback<T, E> action)
            throws E {
        return execute(this.client.getLock(name), this.defaultWaitTime, this.defaultLeaseTime, action);
    }

    /** Like {@link #execute(String, LockCallback)} with an explicit wait time. */
    public <T extends @Nullable Object, E extends Throwable> T execute(String name, Duration waitTime,
            LockCallback<T, E> action) throws E {
        return execute(this.client.getLock(name), waitTime, this.defaultLeaseTime, action);
    }

    /**
     * Runs {@code action} holding {@code lock}: the general form the other methods and the {@code @DistributedLock}
     * advice use.
     *
     * @param leaseTime a fixed lease, or null for a watchdog-renewed one
     */
    public <T extends @Nullable Object, E extends Throwable> T execute(RedisLock lock, Duration waitTime,
            @Nullable Duration leaseTime, LockCallback<T, E> action) throws E {
        LockLease lease = acquire(lock, waitTime, leaseTime);
        return runHolding(lease, action);
    }

    /**
     * Runs {@code action} if the lock can be had within the default wait time.
     *
     * @return the action's result, or empty when the lock stayed busy (a null result is also empty)
     */
    public <T, E extends Throwable> Optional<T> tryExecute(String name, LockCallback<T, E> action) throws E {
        return tryExecute(name, this.defaultWaitTime, action);
    }

    /** Like {@link #tryExecute(String, LockCallback)} with an explicit wait time (zero: one attempt). */
    public <T, E extends Throwable> Optional<T> tryExecute(String name, Duration waitTime, LockCallback<T, E> action)
            throws E {
        Optional<LockLease> lease = tryAcquire(this.client.getLock(name), waitTime, this.defaultLeaseTime);
        if (lease.isEmpty()) {
            return Optional.empty();
        }
        return Optional.ofNullable(runHolding(lease.get(), action));
    }

    /** Acquires {@code name} with the default wait time, for try-with-resources. */
    public LockLease acquire(String name) {
        return acquire(name, this.defaultWaitTime);
    }

    /** Acquires {@code name} waiting up to {@code waitTime}, for try-with-resources. */
    public LockLease acquire(String name, Duration waitTime) {
        return acquire(this.client.getLock(name), waitTime, this.defaultLeaseTime);
    }

    private LockLease acquire(RedisLock lock, Duration waitTime, @Nullable Duration leaseTime) {
        try {
            // The lock's own refusal names the holder it saw.
            return (leaseTime != null) ? lock.acquire(waitTime, leaseTime) : lock.acquire(waitTime);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new LockInterruptedException(lock.name(), ex);
        }
    }

    private Optional<LockLease> tryAcquire(RedisLock lock, Duration waitTime, @Nullable Duration leaseTime) {
        try {
            return (leaseTime != null) ? lock.tryAcquire(waitTime, leaseTime) : lock.tryAcquire(waitTime);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new LockInterruptedException(lock.name(), ex);
        }
    }

    private <T extends @Nullable Object, E extends Throwable> T runHolding(LockLease lease, LockCallback<T, E> action)
            throws E {
        CallbackInterrupter interrupter = (this.lostLeasePolicy == LostLeasePolicy.INTERRUPT)
                ? new CallbackInterrupter(lease) : null;
        T result;
        try {
            result = action.doInLock(lease);
        }
        catch (Throwable ex) {
            stop(interrupter);
            closeAfterFailure(lease, ex);
            throw ex;
        }
        stop(interrupter);
        try {
            lease.close();
        }
        catch (LockLostException ex) {
            if (this.lostLeasePolicy != LostLeasePolicy.IGNORE) {
                throw ex;
            }
        }
        return result;
    }

    private static void stop(@Nullable CallbackInterrupter interrupter) {
        if (interrupter != null) {
            interrupter.stop();
        }
    }

    private static void closeAfterFailure(LockLease lease, Throwable failure) {
        try {
            lease.close();
        }
        catch (RuntimeException ex) {
            failure.addSuppressed(ex);
        }
    }

    /** Interrupts the callback's thread if the lease is lost while, and only while, the callback runs. */
    private static final class CallbackInterrupter {

        private final ReentrantLock guard = new ReentrantLock();

        private @Nullable Thread running = Thread.currentThread();

        private boolean interrupted;

        CallbackInterrupter(LockLease lease) {
            lease.addLossListener((loss) -> interrupt());
        }

        private void interrupt() {
            this.guard.lock();
            try {
                if (this.running != null) {
                    this.interrupted = true;
                    this.running.interrupt();
                }
            }
            finally {
                this.guard.unlock();
            }
        }

        void stop() {
            this.guard.lock();
            try {
                this.running = null;
                if (this.interrupted) {
                    // The interrupt was ours, to stop the callback; do not leak it to the caller's later code.
                    Thread.interrupted();
                }
            }
            finally {
                this.guard.unlock();
            }
        }
    }
}
