package dev.distlock.core.internal.hold;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import dev.distlock.core.LeaseLoss;
import dev.distlock.core.LeaseLossListener;
import dev.distlock.core.internal.protocol.Grant;
import dev.distlock.core.internal.protocol.LockProtocol;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One ownership of a lock key on Redis: owner token, fencing token, validity deadline, and how many open leases
 * (reentrant acquisitions) share it. State moves HELD to RELEASED or HELD to LOST, once.
 */
public final class Hold {

    private static final Logger logger = LoggerFactory.getLogger(Hold.class);

    public enum State { HELD, RELEASED, LOST }

    private final LockProtocol protocol;

    private final Grant grant;

    private final long leaseMillis;

    private final long leaseNanos;

    private final long driftNanos;

    private final boolean watchdog;

    private final @Nullable Thread thread;

    private final AtomicReference<State> state = new AtomicReference<>(State.HELD);

    private final AtomicInteger openLeases = new AtomicInteger(1);

    private final List<LeaseLossListener> listeners = new CopyOnWriteArrayList<>();

    private final ReentrantLock endMoves = new ReentrantLock();

    private volatile long fencingToken;

    private volatile long validUntilNanos;

    private volatile long lastCheckSentNanos;

    /**
     * The validity the grant gave: while {@link #validUntilNanos} is unchanged, nothing set the key's expiry since (a
     * renewal extends it, an end move replaces it; an ownership check leaves it).
     */
    private final long grantValidUntilNanos;

    private volatile @Nullable LeaseLoss loss;

    /**
     * Makes the loss ({@link #state} to LOST and {@link #loss} set) one step for {@link #removeLossListener}: a listener
     * removed before it is not told, one removed after it is told by whoever removed it. Held for a few instructions.
     */
    private final ReentrantLock lossStep = new ReentrantLock();

    volatile boolean renewalInFlight;

    public Hold(LockProtocol protocol, Grant grant, long leaseMillis, boolean watchdog, @Nullable Thread thread) {
        this.protocol = protocol;
        this.grant = grant;
        this.leaseMillis = leaseMillis;
        this.leaseNanos = Duration.ofMillis(leaseMillis).toNanos();
        this.driftNanos = Grant.driftNanos(leaseMillis);
        this.watchdog = watchdog;
        this.thread = thread;
        this.fencingToken = grant.fencingToken();
        // A handoff whose confirmation is on its way counts as checked now: the watchdog need not renew at once.
        this.lastCheckSentNanos = (grant.confirmation() != null) ? System.nanoTime() : grant.sentAtNanos();
        this.validUntilNanos = grant.sentAtNanos() + this.leaseNanos - this.driftNanos;
        this.grantValidUntilNanos = this.validUntilNanos;
    }

    public LockProtocol protocol() {
        return this.protocol;
    }

    public String lockName() {
        return this.protocol.lockName();
    }

    public String owner() {
        return this.grant.owner();
    }

    /** The fencing token, or one of {@link Grant}'s unminted values while the holder has not asked for it. */
    public long fencingTokenIfMinted() {
        return this.fencingToken;
    }

    /** Records the token minted for this hold on the holder's request. */
    public void recordFencingToken(long token) {
        this.fencingToken = token;
    }

    /** The token for messages and listings: 0 while none was minted. */
    long knownFencingToken() {
        long token = this.fencingToken;
        return Grant.isMinted(token) ? token : 0;
    }

    public long leaseMillis() {
        return this.leaseMillis;
    }

    public boolean watchdog() {
        return this.watchdog;
    }

    public @Nullable Thread thread() {
        return this.thread;
    }

    public State state() {
        return this.state.get();
    }

    /** When the last successful renewal (watchdog) or ownership check (fixed lease) was sent, or the acquire. */
    long lastCheckSentNanos() {
        return this.lastCheckSentNanos;
    }

    /** How often the watchdog renews (watchdog lease) or checks (fixed lease) this hold: a third of its lease. */
    long checkIntervalNanos() {
        return this.leaseNanos / 3;
    }

    /**
     * How early a renewal or check may be sent so that the holds due around one watchdog tick share it: a quarter of
     * the interval. The watchdog ticks at least this often while the hold is watched.
     */
    long checkSlackNanos() {
        return checkIntervalNanos() / 4;
    }

    public boolean isValid() {
        return this.state.get() == State.HELD && System.nanoTime() - this.validUntilNanos < 0;
    }

    public boolean isExpired(long nowNanos) {
        return nowNanos - this.validUntilNanos >= 0;
    }

    Duration remainingValidity() {
        if (this.state.get() != State.HELD) {
            return Duration.ZERO;
        }
        long remaining = this.validUntilNanos - System.nanoTime();
        return (remaining > 0) ? Duration.ofNanos(remaining) : Duration.ZERO;
    }

    /** Records a successful ownership check (no extension) sent at {@code sentAtNanos}. */
    void checked(long sentAtNanos) {
        if (sentAtNanos - this.lastCheckSentNanos > 0) {
            this.lastCheckSentNanos = sentAtNanos;
        }
    }

    /** Records a successful renewal sent at {@code sentAtNanos}. */
    public void renewed(long sentAtNanos) {
        checked(sentAtNanos);
        long candidate = sentAtNanos + this.leaseNanos - this.driftNanos;
        if (candidate - this.validUntilNanos > 0) {
            this.validUntilNanos = candidate;
        }
    }

    /**
     * Moves the end of this fixed hold to {@code millis} after {@code reLease} is sent. Until it answers, the earlier
     * of the old and the new end counts (the key may end at either, also when it never answers); once it confirmed,
     * the new end. Moves run one at a time, so the end kept here is the one Redis applied last.
     *
     * @param reLease the owner-checked re-lease of the key, blocking: true while this hold owns it
     * @return whether the key was still this hold's
     */
    public boolean moveEnd(long millis, BooleanSupplier reLease) {
        this.endMoves.lock();
        try {
            long sentAt = System.nanoTime();
            long newEnd = sentAt + Duration.ofMillis(millis).toNanos() - Grant.driftNanos(millis);
            if (newEnd - this.validUntilNanos < 0) {
                this.validUntilNanos = newEnd;
            }
            if (!reLease.getAsBoolean()) {
                return false;
            }
            this.validUntilNanos = newEnd;
            checked(sentAt);
            return true;
        }
        finally {
            this.endMoves.unlock();
        }
    }

    /**
     * Sends the confirmation a handed-over hold owes its offer, unless it is no longer needed: the hold ended or its
     * validity did, or since the grant its key was renewed or re-leased (each set the key's expiry itself; an
     * ownership check of a fixed lease does not, so it does not count), or an {@linkplain #moveEnd end move} is on its
     * way (it re-leases the key to the end the holder chose, which a confirmation sent after it would overwrite). Sent
     * under the end-move lock, so a later move reaches Redis after it; never waits for that lock.
     *
     * @return the confirmation's answer (see {@link Grant.Confirmation#send()}), or null when none was sent
     */
    public @Nullable CompletableFuture<Long> confirmOffer(Supplier<CompletableFuture<Long>> send) {
        if (!this.endMoves.tryLock()) {
            return null;
        }
        try {
            if (!isValid() || this.validUntilNanos != this.grantValidUntilNanos) {
                return null;
            }
            return send.get();
        }
        finally {
            this.endMoves.unlock();
        }
    }

    public int openLeaseCount() {
        return this.openLeases.get();
    }

    /**
     * Adds an open lease for a reentrant acquisition, unless the last lease was closed meanwhile (another thread may
     * close a lease): a hold with no open lease is being released and must not come back to life.
     *
     * @return whether the lease was added
     */
    public boolean retain() {
        int count;
        do {
            count = this.openLeases.get();
            if (count <= 0) {
                return false;
            }
        }
        while (!this.openLeases.compareAndSet(count, count + 1));
        return true;
    }

    /**
     * Whether this hold no longer stands in the way of a new acquisition by its thread: every lease was closed (it is
     * being released), or it is a fixed lease whose time has run out. A fixed lease ends by itself, so its holder
     * need not close it; a lost watchdog lease that is still open keeps refusing reentry until it is closed.
     */
    public boolean isFinished(long nowNanos) {
        return this.openLeases.get() <= 0 || (!this.watchdog && isExpired(nowNanos));
    }

    /**
     * Drops one open lease.
     *
     * @return true when it was the last one
     * @throws IllegalMonitorStateException when no lease was open
     */
    boolean releaseOne() {
        int left = this.openLeases.updateAndGet((count) -> (count > 0) ? count - 1 : -1);
        if (left < 0) {
            this.openLeases.set(0);
            throw new IllegalMonitorStateException("Lock '" + this.protocol.lockName()
                    + "' is not held by this owner any more");
        }
        return left == 0;
    }

    public boolean markReleased() {
        return this.state.compareAndSet(State.HELD, State.RELEASED);
    }

    /** Marks the hold lost (once), logs it at WARN and tells the listeners. */
    public void markLost(LeaseLoss.Reason reason) {
        LeaseLoss lost = new LeaseLoss(this.protocol.lockName(), knownFencingToken(), reason);
        this.lossStep.lock();
        try {
            if (!this.state.compareAndSet(State.HELD, State.LOST)) {
                return;
            }
            this.loss = lost;
        }
        finally {
            this.lossStep.unlock();
        }
        logger.warn("Lease on lock '{}' (owner {}, fencing token {}) LOST: {}", this.protocol.lockName(),
                this.grant.owner(), knownFencingToken(), reason);
        for (LeaseLossListener listener : this.listeners) {
            // Whoever removes a listener tells it, so a listener added concurrently is told exactly once.
            if (this.listeners.remove(listener)) {
                notify(listener, lost);
            }
        }
    }

    @Nullable LeaseLoss loss() {
        return this.loss;
    }

    void addLossListener(LeaseLossListener listener) {
        this.listeners.add(listener);
        LeaseLoss lost = this.loss;
        if (lost != null && this.listeners.remove(listener)) {
            notify(listener, lost);
        }
    }

    /**
     * Removes a listener whose lease closed. If the hold was lost before, a listener not yet told (the loss is being
     * reported on another thread right now) is told here: otherwise a close racing the report would silence it.
     */
    void removeLossListener(LeaseLossListener listener) {
        LeaseLoss lost;
        this.lossStep.lock();
        try {
            if (!this.listeners.remove(listener)) {
                return;
            }
            lost = this.loss;
        }
        finally {
            this.lossStep.unlock();
        }
        if (lost != null) {
            notify(listener, lost);
        }
    }

    private void notify(LeaseLossListener listener, LeaseLoss lost) {
        try {
            listener.leaseLost(lost);
        }
        catch (RuntimeException ex) {
            logger.error("Lease loss listener for lock '{}' failed", this.protocol.lockName(), ex);
        }
    }
}
