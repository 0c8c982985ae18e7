package dev.distlock.core.internal;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.LockOperationException;
import dev.distlock.core.internal.hold.BackgroundCleanup;
import dev.distlock.core.internal.hold.Hold;
import dev.distlock.core.internal.hold.LeaseRegistry;
import dev.distlock.core.internal.hold.LeaseWatchdog;
import dev.distlock.core.internal.hold.ThreadHolds;
import dev.distlock.core.internal.protocol.LockCommands;
import dev.distlock.core.internal.protocol.LocalWakeUps;
import dev.distlock.core.internal.protocol.LockKeys;
import dev.distlock.core.internal.protocol.OperationTimeouts;
import dev.distlock.core.internal.protocol.OwnerTokens;
import dev.distlock.core.internal.redis.ConnectionStatus;
import dev.distlock.core.internal.redis.RedisGateway;
import dev.distlock.core.internal.waiting.HandoffRooms;
import dev.distlock.core.internal.waiting.WaitContext;
import dev.distlock.core.internal.waiting.WaitRooms;
import io.netty.util.Timer;
import org.jspecify.annotations.Nullable;

/**
 * What every lock of one client shares, wired once: the lock scripts as Redis calls ({@link LockCommands}), the
 * background clean-up, the watchdog, the wait and handoff rooms, the owner-token source and the per-thread holds that
 * make blocking acquisitions reentrant.
 */
public final class LockEngine implements AutoCloseable {

    private final RedisGateway gateway;

    private final LockClientOptions options;

    private final ScheduledThreadPoolExecutor scheduler;

    private final LeaseWatchdog watchdog;

    private final WaitRooms waitRooms;

    private final HandoffRooms handoffRooms;

    private final LeaseRegistry leases = new LeaseRegistry();

    private final OwnerTokens ownerTokens;

    private final ThreadHolds threadHolds = new ThreadHolds();

    private final Executor completionExecutor = ForkJoinPool.commonPool();

    private final LockCommands commands;

    private final BackgroundCleanup cleanup;

    private final AtomicBoolean closed = new AtomicBoolean();

    private final WaitContext waiting;


    /** How long a wake channel stays subscribed after its last waiter left, for the next contention on the name. */
    private static final Duration HANDOFF_LINGER = Duration.ofSeconds(30);

    /** A connection down this long fails lock calls fast; shorter blips (a reset, a reconnect) are ridden out. */
    static final Duration DISCONNECTED_GRACE = Duration.ofMillis(250);

    public LockEngine(RedisGateway gateway, LockClientOptions options) {
        this.gateway = gateway;
        this.options = options;
        this.ownerTokens = new OwnerTokens(options.instanceId());
        this.scheduler = new ScheduledThreadPoolExecutor(1, (runnable) -> {
            Thread thread = new Thread(runnable, "distlock-watchdog-" + this.ownerTokens.clientId());
            thread.setDaemon(true);
            return thread;
        });
        this.scheduler.setRemoveOnCancelPolicy(true);
        this.waitRooms = new WaitRooms(gateway);
        this.handoffRooms = new HandoffRooms(gateway, this.scheduler, HANDOFF_LINGER.toNanos(),
                new OperationTimeouts(gateway.timer(), options.operationTimeout().toNanos(),
                        this.completionExecutor));
        gateway.onMessage((channel, message) -> {
            if (!this.handoffRooms.deliver(channel, message)) {
                this.waitRooms.wakeUp(channel, message);
            }
        });
        this.commands = new LockCommands(gateway, options, this.completionExecutor);
        this.cleanup = new BackgroundCleanup(this.scheduler, options.maxBackoff(), this.closed::get);
        this.watchdog = new LeaseWatchdog(options.watchdogLease(), this.scheduler, this::releaseAbandoned,
                this.threadHolds::forget, this.leases);
        this.waiting = new WaitContext(options, this.scheduler, this.cleanup, this.handoffRooms, this.waitRooms,
                this::newOwner);
    }

    public LockClientOptions options() {
        return this.options;
    }

    public LockKeys keys(@Nullable String name) {
        return LockKeys.of(this.options.keyPrefix(), name, this.options.maxNameLength());
    }

    /** The lock scripts as Redis calls with the operation timeout. */
    public LockCommands commands() {
        return this.commands;
    }

    /** Clean-up in the background: unwanted grants, unknown outcomes, failed releases. */
    public BackgroundCleanup cleanup() {
        return this.cleanup;
    }

    public String newOwner() {
        return this.ownerTokens.next();
    }

    /** Identifies this client in owner tokens and wake channels. */
    public String clientId() {
        return this.ownerTokens.clientId();
    }

    /**
     * Fails fast once the client is closed, instead of queueing work no thread will run, and while the command
     * connection has been down longer than {@link #DISCONNECTED_GRACE}, instead of waiting out the operation timeout.
     */
    void checkOpen(String lockName) {
        if (this.closed.get()) {
            throw new LockOperationException(lockName, "The lock client is closed: lock '" + lockName
                    + "' cannot be used. Create a new client.", null);
        }
        ConnectionStatus status = this.gateway.connectionStatus();
        String unavailable = status.unavailableReason(DISCONNECTED_GRACE);
        if (unavailable != null) {
            throw new LockOperationException(lockName, "Lock '" + lockName + "': not connected to Redis at "
                    + status.target() + " (" + unavailable + "). Lock calls fail fast until it is back; check that"
                    + " Redis is running and reachable.", null);
        }
    }

    /** Whether the command connection is up and where it goes. */
    public ConnectionStatus connectionStatus() {
        return this.gateway.connectionStatus();
    }

    /** The client's single timer thread (watchdog ticks, wait deadlines); tasks on it must not block. */
    public ScheduledExecutorService scheduler() {
        return this.scheduler;
    }

    public LeaseWatchdog watchdog() {
        return this.watchdog;
    }

    /** What acquisitions use while they wait. */
    public WaitContext waiting() {
        return this.waiting;
    }

    /** Whether a waiter of this client is queued behind the queued lock of this wake channel. */
    public boolean queuedLocally(String wakeChannel) {
        return this.handoffRooms.queuedOn(wakeChannel);
    }

    /** Wakes this client's waiters of the racing kinds on a channel, after a local release. */
    public LocalWakeUps localWakeUps() {
        return this.waitRooms;
    }

    /** Each thread's holds, for reentrancy and the read-to-write upgrade check. */
    public ThreadHolds threadHolds() {
        return this.threadHolds;
    }

    Executor completionExecutor() {
        return this.completionExecutor;
    }

    /** The Lettuce client's wheel timer: lock-free to arm and cancel, a tick (100 ms by default) coarse. */
    Timer timer() {
        return this.gateway.timer();
    }

    /** Releases the hold of a thread that terminated without releasing it. */
    private void releaseAbandoned(Hold hold) {
        this.threadHolds.forget(hold);
        this.cleanup.releaseQuietly(hold.protocol(), hold.owner());
    }

    /** The holds of this client and the listeners told about them. */
    public LeaseRegistry leases() {
        return this.leases;
    }

    /** Number of holds the watchdog tracks (renewal or expiry). */
    public int watchedHolds() {
        return this.watchdog.size();
    }

    /** Number of lock names with local waiters (and so an unlock subscription). */
    public int waitingNames() {
        return this.waitRooms.activeRooms() + this.handoffRooms.activeRooms();
    }

    @Override
    public void close() {
        if (!this.closed.compareAndSet(false, true)) {
            return;
        }
        this.watchdog.close();
        this.handoffRooms.close();
        this.commands.close();
        this.scheduler.shutdownNow();
        this.gateway.close();
    }
}
