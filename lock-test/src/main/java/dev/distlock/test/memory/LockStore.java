package dev.distlock.test.memory;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import dev.distlock.core.LeaseLoss;
import dev.distlock.core.LeaseLossListener;
import dev.distlock.core.LockLease;
import org.jspecify.annotations.Nullable;

/**
 * What a Redis server is to the clients that share it, in memory: every name's holds and waiters, the fencing
 * counters, which thread holds what (for reentrancy), and the test controls. One mutex guards all of it; loss
 * listeners are told after it is released, on the thread that caused the loss.
 */
final class LockStore {

    private final ReentrantLock mutex = new ReentrantLock();

    private final Condition changed = this.mutex.newCondition();

    private final Map<String, Slot> exclusive = new HashMap<>();

    private final Map<String, Slot> readWrite = new HashMap<>();

    private final Map<String, Long> fences = new HashMap<>();

    private final Map<ThreadKey, Hold> threadHolds = new HashMap<>();

    private final Map<ViewKey, Deque<LockLease>> threadLeases = new HashMap<>();

    private final List<Runnable> notifications = new ArrayList<>();

    private final Map<String, Duration> slowAcquires = new ConcurrentHashMap<>();

    private final Set<String> loseNext = ConcurrentHashMap.newKeySet();

    private final AtomicInteger clientIds = new AtomicInteger();

    private final AtomicLong attempts = new AtomicLong();

    /** Runs asynchronous acquisitions and fixed-lease expiries; daemon threads that end when idle. */
    final ExecutorService executor = Executors.newCachedThreadPool((task) -> {
        Thread thread = new Thread(task, "in-memory-locks");
        thread.setDaemon(true);
        return thread;
    });

    int nextClientId() {
        return this.clientIds.incrementAndGet();
    }

    long nextAttempt() {
        return this.attempts.incrementAndGet();
    }

    /** Runs {@code work} holding the mutex, then tells the loss listeners it caused. */
    <T> T locked(Supplier<T> work) {
        List<Runnable> toRun;
        this.mutex.lock();
        try {
            return work.get();
        }
        finally {
            toRun = List.copyOf(this.notifications);
            this.notifications.clear();
            this.mutex.unlock();
            toRun.forEach(Runnable::run);
        }
    }

    /** Waits (holding the mutex) until the state changes or {@code nanos} pass. */
    void await(long nanos) throws InterruptedException {
        this.changed.awaitNanos(nanos);
    }

    /** Takes an abandoned asynchronous attempt out of every queue at once and wakes it to give up. */
    void abandon(Owner owner) {
        locked(() -> {
            this.exclusive.values().forEach((slot) -> slot.queue.remove(owner));
            this.readWrite.values().forEach((slot) -> slot.queue.remove(owner));
            this.changed.signalAll();
            return null;
        });
    }

    Slot slot(Side side, String name) {
        Map<String, Slot> family = (side == Side.EXCLUSIVE) ? this.exclusive : this.readWrite;
        Slot slot = family.computeIfAbsent(name, Slot::new);
        expireDue(slot);
        return slot;
    }

    @Nullable Hold threadHold(Owner owner, Side side, String name) {
        return (owner.thread() != null) ? this.threadHolds.get(new ThreadKey(owner, side, name)) : null;
    }

    void forgetThreadHold(Hold hold) {
        this.threadHolds.remove(new ThreadKey(hold.owner, hold.side, hold.slot.name), hold);
    }

    /** Whether {@code owner} may take {@code side} of {@code slot} now (also respecting the queue's order). */
    boolean grantable(Slot slot, Side side, Owner owner) {
        boolean ownWriter = slot.writer != null && slot.writer.owner.equals(owner);
        boolean queueAllows = slot.queue.isEmpty() || slot.queue.peekFirst().equals(owner);
        return switch (side) {
            case EXCLUSIVE, WRITE -> slot.writer == null && slot.readers.isEmpty() && queueAllows;
            // writer preference: a queued writer keeps new readers out; the writer itself may downgrade
            case READ -> (slot.writer == null && slot.queue.isEmpty()) || ownWriter;
        };
    }

    Hold grant(Slot slot, Side side, Owner owner, @Nullable Duration leaseTime, boolean fencing) {
        long token = fencing ? this.fences.merge(slot.name, 1L, Long::sum) : 0;
        Hold hold = new Hold(slot, side, owner, token, leaseTime);
        if (side == Side.READ) {
            slot.readers.put(owner, hold);
        }
        else {
            slot.writer = hold;
        }
        if (owner.thread() != null) {
            this.threadHolds.put(new ThreadKey(owner, side, slot.name), hold);
        }
        if (leaseTime != null) {
            scheduleExpiry(hold);
        }
        if (this.loseNext.remove(slot.name)) {
            lose(hold, LeaseLoss.Reason.RENEWAL_REFUSED);
        }
        return hold;
    }

    /** Frees the hold's side of its slot (its last lease was closed while it was valid). */
    void release(Hold hold) {
        hold.slot.remove(hold);
        this.changed.signalAll();
    }

    /** Moves a held fixed lease's end; waiters look again, and the expiry follows the new end. */
    void moveEnd(Hold hold, Duration remaining) {
        hold.moveEnd(remaining);
        scheduleExpiry(hold);
        this.changed.signalAll();
    }

    /** Marks the hold lost (once), frees its slot and queues the news for its open leases' listeners. */
    void lose(Hold hold, LeaseLoss.Reason reason) {
        if (hold.lost != null) {
            return;
        }
        hold.lost = reason;
        hold.slot.remove(hold);
        LeaseLoss loss = new LeaseLoss(hold.slot.name, hold.fencingToken, reason);
        for (MemoryLease lease : hold.openLeases) {
            List<LeaseLossListener> listeners = lease.takeListeners();
            this.notifications.add(() -> listeners.forEach((listener) -> listener.leaseLost(loss)));
        }
        this.changed.signalAll();
    }

    /** Every hold on {@code name}, any kind: lost as if its key had been deleted behind its back. */
    boolean loseAll(Collection<Claim> claims) {
        boolean any = false;
        for (Claim claim : claims) {
            Slot slot = slot(claim.side(), claim.name());
            List<Hold> holds = new ArrayList<>(slot.readers.values());
            if (slot.writer != null) {
                holds.add(slot.writer);
            }
            for (Hold hold : holds) {
                lose(hold, LeaseLoss.Reason.RENEWAL_REFUSED);
                any = true;
            }
        }
        return any;
    }

    /** Loses every hold of every name, drops the queues' waiters and clears the test controls. */
    void reset() {
        List<Claim> all = new ArrayList<>();
        this.exclusive.keySet().forEach((name) -> all.add(new Claim(Side.EXCLUSIVE, name)));
        this.readWrite.keySet().forEach((name) -> all.add(new Claim(Side.WRITE, name)));
        loseAll(all);
        this.threadHolds.clear();
        this.threadLeases.clear();
        this.slowAcquires.clear();
        this.loseNext.clear();
    }

    void enqueue(Slot slot, Owner owner) {
        if (!slot.queue.contains(owner)) {
            slot.queue.addLast(owner);
        }
    }

    void dequeue(Owner owner, List<Slot> slots) {
        boolean removed = false;
        for (Slot slot : slots) {
            removed |= slot.queue.remove(owner);
        }
        if (removed) {
            this.changed.signalAll();
        }
    }

    void slowAcquire(String name, Duration delay) {
        if (delay.isZero()) {
            this.slowAcquires.remove(name);
        }
        else {
            this.slowAcquires.put(name, delay);
        }
    }

    /** The longest delay set for any of the names. */
    Duration slowness(List<Claim> claims) {
        return claims.stream()
            .map((claim) -> this.slowAcquires.getOrDefault(claim.name(), Duration.ZERO))
            .max(Duration::compareTo)
            .orElse(Duration.ZERO);
    }

    void loseNextLease(String name) {
        this.loseNext.add(name);
    }

    void rememberThreadLease(ViewKey key, LockLease lease) {
        this.threadLeases.computeIfAbsent(key, (ignored) -> new ArrayDeque<>()).addLast(lease);
    }

    void forgetThreadLease(ViewKey key, LockLease lease) {
        Deque<LockLease> leases = this.threadLeases.get(key);
        if (leases != null) {
            leases.removeLastOccurrence(lease);
            if (leases.isEmpty()) {
                this.threadLeases.remove(key);
            }
        }
    }

    @Nullable LockLease innermostThreadLease(ViewKey key) {
        Deque<LockLease> leases = this.threadLeases.get(key);
        return (leases != null) ? leases.peekLast() : null;
    }

    private void expireDue(Slot slot) {
        List<Hold> holds = new ArrayList<>(slot.readers.values());
        if (slot.writer != null) {
            holds.add(slot.writer);
        }
        holds.stream().filter(Hold::expired).forEach((hold) -> lose(hold, LeaseLoss.Reason.EXPIRED));
    }

    private void scheduleExpiry(Hold hold) {
        long nanos = Math.max(1, hold.nanosUntilExpiry());
        CompletableFuture.delayedExecutor(nanos, TimeUnit.NANOSECONDS, this.executor).execute(() -> locked(() -> {
            if (hold.lost == null) {
                if (hold.expired()) {
                    lose(hold, LeaseLoss.Reason.EXPIRED);
                }
                else {
                    scheduleExpiry(hold);
                }
            }
            return null;
        }));
    }

    /** A thread's hold on one side of one name, through one client. */
    record ThreadKey(Owner owner, Side side, String name) {
    }

    /** A thread's open leases of one lock (kind and names), for the {@code Lock} view's {@code unlock()}. */
    record ViewKey(int clientId, String lockKey, Thread thread) {
    }
}
