package dev.distlock.core.internal;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

import dev.distlock.core.RedisLock;

/**
 * {@link Lock} over a thread-reentrant {@link RedisLock}, keyed on the calling thread like
 * {@code ReentrantLock}: {@code unlock()} releases the calling thread's innermost acquisition. Other implementations
 * of {@link RedisLock} reach it through {@link RedisLock#lockView(RedisLock, Runnable)}.
 */
public final class LockView implements Lock {

    private static final Duration FOREVER = ChronoUnit.FOREVER.getDuration();

    private final RedisLock lock;

    private final Runnable unlockCurrentThread;

    /**
     * @param unlockCurrentThread releases the calling thread's innermost acquisition of {@code lock}, or throws
     * {@link IllegalMonitorStateException} if it has none
     */
    public LockView(RedisLock lock, Runnable unlockCurrentThread) {
        this.lock = lock;
        this.unlockCurrentThread = unlockCurrentThread;
    }

    @Override
    public void lock() {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    this.lock.acquire(FOREVER);
                    return;
                }
                catch (InterruptedException ex) {
                    interrupted = true;
                }
            }
        }
        finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        this.lock.acquire(FOREVER);
    }

    @Override
    public boolean tryLock() {
        return this.lock.tryAcquire().isPresent();
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        Duration wait = Duration.of(Math.max(0, time), unit.toChronoUnit());
        return this.lock.tryAcquire(wait).isPresent();
    }

    @Override
    public void unlock() {
        this.unlockCurrentThread.run();
    }

    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("Distributed locks do not support conditions");
    }
}
