package dev.distlock.core;

import java.time.Duration;
import java.util.Optional;

import dev.distlock.core.internal.TemplateDefaults;
import dev.distlock.core.internal.hold.LeaseLossInterrupter;
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
 *
 * // permit: at most 4 exports at a time across the cluster
 * RedisSemaphore exports = redisLockClient.getSemaphore("exports", 4);
 * Report report = lockTemplate.executeWithPermit(exports, (permit) -> export(permit.fencingToken()));
 * }</pre>
 *
 * <p>The lock is released after the callback returns or throws. If the lease was lost while the callback ran, the
 * {@link LostLeasePolicy} decides: by default the caller gets a {@link LockLostException} instead of the result.
 * Interrupts while waiting become {@link LockInterruptedException} with the interrupt flag set again.
 */
public final class LockTemplate {

    /** Wait time used when none is configured. */
    public static final Duration DEFAULT_WAIT_TIME = Duration.ofSeconds(5);

    private final TemplateDefaults defaults;

    /** A template waiting {@link #DEFAULT_WAIT_TIME}, with watchdog leases, failing on a lost lease. */
    public LockTemplate(LockClient client) {
        this(client, DEFAULT_WAIT_TIME, null, LostLeasePolicy.FAIL);
    }

    /**
     * @param client the lock client
     * @param defaultWaitTime how long to wait when a call gives no wait time (zero: one attempt)
     * @param defaultLeaseTime fixed lease when a call gives none, or null for watchdog-renewed leases
     * @param lostLeasePolicy what to do when a lease is lost while the callback runs
     */
    public LockTemplate(LockClient client, Duration defaultWaitTime, @Nullable Duration defaultLeaseTime,
            LostLeasePolicy lostLeasePolicy) {
        this.defaults = new TemplateDefaults(client, defaultWaitTime, defaultLeaseTime, lostLeasePolicy);
    }

    /** How long calls without an explicit wait time wait. */
    public Duration defaultWaitTime() {
        return this.defaults.waitTime();
    }

    /** The fixed lease of calls without one, or null for watchdog-renewed leases. */
    public @Nullable Duration defaultLeaseTime() {
        return this.defaults.leaseTime();
    }

    /** What happens when a lease is lost while a callback runs. */
    public LostLeasePolicy lostLeasePolicy() {
        return this.defaults.lostLeasePolicy();
    }

    /** The client this template uses. */
    public LockClient client() {
        return this.defaults.client();
    }

    /**
     * Runs {@code action} holding the lock {@code name}, waiting up to the default wait time.
     *
     * @throws LockNotAcquiredException if the lock stayed busy for the wait time; the action did not run
     * @throws LockLostException if the lease was lost during the action (policy {@code FAIL} or {@code INTERRUPT})
     */
    public <T extends @Nullable Object, E extends Throwable> T execute(String name, LockCallback<T, E> action)
            throws E {
        return execute(lockNamed(name), this.defaults.waitTime(), this.defaults.leaseTime(), action);
    }

    /** Like {@link #execute(String, LockCallback)} with an explicit wait time. */
    public <T extends @Nullable Object, E extends Throwable> T execute(String name, Duration waitTime,
            LockCallback<T, E> action) throws E {
        return execute(this.defaults.client().getLock(name), waitTime, this.defaults.leaseTime(), action);
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
        return tryExecute(name, this.defaults.waitTime(), action);
    }

    /** Like {@link #tryExecute(String, LockCallback)} with an explicit wait time (zero: one attempt). */
    public <T, E extends Throwable> Optional<T> tryExecute(String name, Duration waitTime, LockCallback<T, E> action)
            throws E {
        Optional<LockLease> lease = tryAcquire(lockNamed(name), waitTime, this.defaults.leaseTime());
        if (lease.isEmpty()) {
            return Optional.empty();
        }
        return Optional.ofNullable(runHolding(lease.get(), action));
    }

    /**
     * Runs {@code action} holding one permit of {@code semaphore}, waiting up to the default wait time (and with the
     * default lease time, if any); the permit is returned after the action, and a lost permit is handled by the
     * {@link LostLeasePolicy} as for a lock.
     *
     * @throws LockNotAcquiredException if no permit came free within the wait time; the action did not run
     * @throws LockLostException if the permit was lost during the action (policy {@code FAIL} or {@code INTERRUPT})
     */
    public <T extends @Nullable Object, E extends Throwable> T executeWithPermit(RedisSemaphore semaphore,
            LockCallback<T, E> action) throws E {
        return executeWithPermit(semaphore, this.defaults.waitTime(), action);
    }

    /** Like {@link #executeWithPermit(RedisSemaphore, LockCallback)} with an explicit wait time. */
    public <T extends @Nullable Object, E extends Throwable> T executeWithPermit(RedisSemaphore semaphore,
            Duration waitTime, LockCallback<T, E> action) throws E {
        Duration leaseTime = this.defaults.leaseTime();
        LockLease permit;
        try {
            permit = (leaseTime != null) ? semaphore.acquire(waitTime, leaseTime) : semaphore.acquire(waitTime);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new LockInterruptedException(semaphore.name(), ex);
        }
        return runHolding(permit, action);
    }

    /** Acquires {@code name} with the default wait time, for try-with-resources. */
    public LockLease acquire(String name) {
        return acquire(name, this.defaults.waitTime());
    }

    /** Acquires {@code name} waiting up to {@code waitTime}, for try-with-resources. */
    public LockLease acquire(String name, Duration waitTime) {
        return acquire(this.defaults.client().getLock(name), waitTime, this.defaults.leaseTime());
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
        LeaseLossInterrupter interrupter = LeaseLossInterrupter.forPolicy(this.defaults.lostLeasePolicy(), lease);
        T result;
        try {
            result = action.doInLock(lease);
        }
        catch (Throwable ex) {
            LeaseLossInterrupter.stop(interrupter);
            closeAfterFailure(lease, ex);
            throw ex;
        }
        LeaseLossInterrupter.stop(interrupter);
        try {
            lease.close();
        }
        catch (LockLostException ex) {
            if (this.defaults.lostLeasePolicy() != LostLeasePolicy.IGNORE) {
                throw ex;
            }
        }
        return result;
    }

    private static void closeAfterFailure(LockLease lease, Throwable failure) {
        try {
            lease.close();
        }
        catch (RuntimeException ex) {
            failure.addSuppressed(ex);
        }
    }

    private RedisLock lockNamed(String name) {
        return this.defaults.client().getLock(name);
    }
}
