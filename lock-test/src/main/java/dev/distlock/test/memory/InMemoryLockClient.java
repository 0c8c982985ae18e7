package dev.distlock.test.memory;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.CompletionException;

import dev.distlock.core.LeaseLoss;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockClientOptions;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.ReadWriteRedisLock;
import dev.distlock.core.RedisLock;

/**
 * A {@link LockClient} in memory, for tests that need no Redis: the locks of {@link dev.distlock.core.RedisLockClient}
 * with the same semantics within one JVM, and controls that make the rare paths happen on demand.
 *
 * <p><b>Semantics kept</b> (lock-core's contract suite runs against this client too): mutual exclusion between clients
 * that share the locks ({@link #otherInstance(String)}) and between threads; blocking acquisitions reentrant per
 * thread, with the same fencing token, released when the last lease closes; the wait time honoured (waiters queue in
 * arrival order, a wait of zero is one attempt) and a refusal naming the holder's instance; fencing tokens strictly
 * increasing per name (0 with fencing off); fixed leases that run out; a lost lease that turns
 * {@link LockLease#isHeld()} false, tells its loss listeners once (on the thread that caused the loss), makes the
 * thread's reentry and the lease's close throw {@link dev.distlock.core.LockLostException}; read/write locks with
 * writer preference, downgrade but no upgrade; all-or-nothing multi-locks; non-reentrant asynchronous acquisitions.
 *
 * <p><b>Not simulated:</b> Redis itself (connections, failover, replication, key prefixes), renewal traffic (a
 * watchdog lease never lapses unless a test loses it), and RedLock.
 *
 * <p><b>Test controls</b> act on every client that shares the locks: {@link #holdAsInstance} (a busy lock),
 * {@link #loseLease} and {@link #loseNextLease} (a lost lease), {@link #slowAcquire} (a slow or unanswered acquire),
 * {@link #reset()} (a clean slate between tests).
 */
public final class InMemoryLockClient implements LockClient {

    private final LockStore store;

    private final LockClientOptions options;

    private final int clientId;

    /** A client with {@link LockClientOptions#defaults()} and locks of its own. */
    public InMemoryLockClient() {
        this(LockClientOptions.defaults());
    }

    /**
     * A client with locks of its own. Of the options, the instance id, the watchdog lease (what
     * {@link LockLease#remainingValidity()} reports), the operation timeout (see {@link #slowAcquire}), fencing and the
     * maximum name length apply.
     */
    public InMemoryLockClient(LockClientOptions options) {
        this(new LockStore(), options);
    }

    private InMemoryLockClient(LockStore store, LockClientOptions options) {
        this.store = store;
        this.options = Objects.requireNonNull(options, "options must not be null");
        this.clientId = store.nextClientId();
    }

    /**
     * A client of another application instance on the same locks, as a second instance shares one Redis: its
     * threads are other owners, and a refusal names {@code instanceId}.
     */
    public InMemoryLockClient otherInstance(String instanceId) {
        return new InMemoryLockClient(this.store, LockClientOptions.builder()
            .instanceId(instanceId)
            .watchdogLease(this.options.watchdogLease())
            .operationTimeout(this.options.operationTimeout())
            .fencing(this.options.fencing())
            .maxNameLength(this.options.maxNameLength())
            .build());
    }

    @Override
    public RedisLock getLock(String name) {
        return lock(checkedName(name), Side.EXCLUSIVE);
    }

    /** The same lock as {@link #getLock}: every lock of this client grants waiters in arrival order. */
    @Override
    public RedisLock getFairLock(String name) {
        return getLock(name);
    }

    @Override
    public ReadWriteRedisLock getReadWriteLock(String name) {
        String checked = checkedName(name);
        RedisLock read = lock(checked, Side.READ);
        RedisLock write = lock(checked, Side.WRITE);
        return new ReadWriteRedisLock() {

            @Override
            public String name() {
                return checked;
            }

            @Override
            public RedisLock readLock() {
                return read;
            }

            @Override
            public RedisLock writeLock() {
                return write;
            }
        };
    }

    @Override
    public RedisLock getMultiLock(Collection<String> names) {
        if (names == null || names.isEmpty()) {
            throw new IllegalArgumentException("A multi-lock needs at least one lock name");
        }
        TreeSet<String> ordered = new TreeSet<>();
        names.forEach((name) -> ordered.add(checkedName(name)));
        List<Claim> claims = ordered.stream().map((name) -> new Claim(Side.EXCLUSIVE, name)).toList();
        return new MemoryLock(this.store, this.clientId, this.options, String.join(",", ordered), claims);
    }

    @Override
    public LockClientOptions options() {
        return this.options;
    }

    /**
     * Makes {@code name} busy: holds it for another application instance until the returned lease is closed, so an
     * acquisition waits its wait time and then fails with a {@link LockNotAcquiredException} naming
     * {@code instanceId} (a {@code @DistributedLock} method takes its {@code onNotAcquired} path).
     *
     * @throws LockNotAcquiredException if the lock is held already
     */
    public LockLease holdAsInstance(String name, String instanceId) {
        try {
            return otherInstance(instanceId).getLock(name).acquireAsync(Duration.ZERO).toCompletableFuture().join();
        }
        catch (CompletionException ex) {
            if (ex.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw ex;
        }
    }

    /**
     * Loses every hold on {@code name} now (any lock kind), as if its key had been deleted behind the holder's back:
     * the holder's leases turn not held, their loss listeners are told ({@link LeaseLoss.Reason#RENEWAL_REFUSED}) on
     * this thread, and closing them throws {@link dev.distlock.core.LockLostException}.
     *
     * @return whether anything was held
     */
    public boolean loseLease(String name) {
        String checked = checkedName(name);
        return this.store.locked(() -> this.store.loseAll(List.of(new Claim(Side.EXCLUSIVE, checked),
                new Claim(Side.WRITE, checked))));
    }

    /**
     * Loses the next hold granted on {@code name} right after it is granted: the code it guards runs with a lease
     * that is already lost, so a {@code LockTemplate} or {@code @DistributedLock} call takes its lost-lease path
     * (FAIL: {@link dev.distlock.core.LockLostException} after the work; INTERRUPT: the thread is interrupted).
     */
    public void loseNextLease(String name) {
        this.store.loseNextLease(checkedName(name));
    }

    /**
     * Makes every acquisition of {@code name} take {@code delay} before its first attempt, like a slow round trip to
     * Redis (it does not count against the wait time). A delay of at least the operation timeout fails the
     * acquisition after that timeout with a {@link dev.distlock.core.LockOperationException}, as an unanswered
     * Redis does. {@link Duration#ZERO} turns it off.
     */
    public void slowAcquire(String name, Duration delay) {
        if (delay == null || delay.isNegative()) {
            throw new IllegalArgumentException("delay must be zero or positive, was " + delay);
        }
        this.store.slowAcquire(checkedName(name), delay);
    }

    /**
     * Loses every hold (their listeners are told), forgets which thread held what, and clears the test controls:
     * for a client shared by several tests, such as a Spring bean in a cached context.
     */
    public void reset() {
        this.store.locked(() -> {
            this.store.reset();
            return null;
        });
    }

    private RedisLock lock(String name, Side side) {
        return new MemoryLock(this.store, this.clientId, this.options, name, List.of(new Claim(side, name)));
    }

    private String checkedName(String name) {
        if (name == null) {
            throw new IllegalArgumentException("Lock name must not be null");
        }
        if (name.isBlank()) {
            throw new IllegalArgumentException("Lock name must not be blank, was '" + name + "'");
        }
        if (name.length() > this.options.maxNameLength()) {
            throw new IllegalArgumentException("Lock name is " + name.length() + " characters long, more than the "
                    + this.options.maxNameLength() + " allowed; hash long keys before using them as lock names");
        }
        return name;
    }
}
