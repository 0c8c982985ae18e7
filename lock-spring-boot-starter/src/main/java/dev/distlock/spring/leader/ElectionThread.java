package dev.distlock.spring.leader;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread of one {@link LeaderElection} and its handshake with {@code stop()}: whether the election runs, and
 * whether the thread is in a wait that stop may interrupt (in line for the lock, or pausing before a retry). While
 * a term runs the thread is not interruptible: stop ends the term instead, so candidate callbacks never see an
 * interrupt that was meant for a wait.
 */
final class ElectionThread {

    private static final Logger logger = LoggerFactory.getLogger(LeaderElection.class);

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    private final String group;

    /** Guards {@link #running}, {@link #interruptible} and {@link #thread}, so stop interrupts only a wait. */
    private final ReentrantLock state = new ReentrantLock();

    private boolean running;

    private boolean interruptible;

    private @Nullable Thread thread;

    ElectionThread(String group) {
        this.group = group;
    }

    /** Runs {@code election} on a new daemon thread, {@code distlock-leader-<group>}; nothing if it runs already. */
    void start(Runnable election) {
        this.state.lock();
        try {
            if (this.running) {
                return;
            }
            this.running = true;
            Thread competing = new Thread(election, "distlock-leader-" + this.group);
            competing.setDaemon(true);
            this.thread = competing;
            competing.start();
        }
        finally {
            this.state.unlock();
        }
    }

    /**
     * Marks the election stopped and interrupts the thread if it is in an interruptible wait.
     *
     * @return false if it was not running
     */
    boolean stop() {
        this.state.lock();
        try {
            if (!this.running) {
                return false;
            }
            this.running = false;
            if (this.interruptible && this.thread != null) {
                this.thread.interrupt();
            }
            return true;
        }
        finally {
            this.state.unlock();
        }
    }

    /** Waits for the thread to end, at most 10 s (a callback that does not return is logged); not on itself. */
    void join() {
        Thread competing;
        this.state.lock();
        try {
            competing = this.thread;
        }
        finally {
            this.state.unlock();
        }
        if (competing == null || competing == Thread.currentThread()) {
            return;
        }
        try {
            competing.join(STOP_TIMEOUT.toMillis());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        if (competing.isAlive()) {
            logger.warn("Leader election of group '{}' did not stop within {} s: a candidate callback still runs",
                    this.group, STOP_TIMEOUT.toSeconds());
        }
    }

    boolean isRunning() {
        this.state.lock();
        try {
            return this.running;
        }
        finally {
            this.state.unlock();
        }
    }

    /**
     * Runs {@code action} if the election still runs, atomically with respect to {@link #stop()}.
     *
     * @return false if it had stopped (the action did not run)
     */
    boolean ifRunning(Runnable action) {
        this.state.lock();
        try {
            if (this.running) {
                action.run();
            }
            return this.running;
        }
        finally {
            this.state.unlock();
        }
    }

    /** While running, marks the thread as one that {@link #stop()} may interrupt; false once stopped. */
    boolean enterInterruptible() {
        this.state.lock();
        try {
            this.interruptible = this.running;
            return this.running;
        }
        finally {
            this.state.unlock();
        }
    }

    /** From here on stop() no longer interrupts; an interrupt it sent before is cleared. */
    void leaveInterruptible() {
        this.state.lock();
        try {
            this.interruptible = false;
            Thread.interrupted();
        }
        finally {
            this.state.unlock();
        }
    }

    /** Pauses for {@code delay}, or until stop() interrupts it; call inside an interruptible section. */
    static void pause(Duration delay) {
        try {
            TimeUnit.NANOSECONDS.sleep(delay.toNanos());
        }
        catch (InterruptedException ex) {
            // stopping
        }
    }

    /** {@link #pause} as an interruptible section of its own, if the election still runs. */
    void pauseInterruptibly(Duration delay) {
        if (enterInterruptible()) {
            try {
                pause(delay);
            }
            finally {
                leaveInterruptible();
            }
        }
    }
}
