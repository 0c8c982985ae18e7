package dev.distlock.benchmarks.contention;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;

/**
 * The platform threads one scenario starts, one per simulated client, and the guarantee that they end: {@link #stop}
 * asks them to finish, waits, interrupts stragglers, and fails loudly if any is still alive. Failures inside a thread
 * are counted and the first one is kept for the report.
 */
final class ClientThreads {

    private final List<Thread> threads = new ArrayList<>();

    private final AtomicInteger failures = new AtomicInteger();

    private final AtomicReference<@Nullable Throwable> firstFailure = new AtomicReference<>();

    private volatile boolean stopping;

    /** Body of one client thread; it should return soon after {@link #stopping()} turns true. */
    @FunctionalInterface
    interface Body {

        void run(int index) throws InterruptedException;
    }

    void start(String name, int count, Body body) {
        for (int index = 0; index < count; index++) {
            int client = index;
            Thread thread = new Thread(() -> {
                try {
                    body.run(client);
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
                catch (RuntimeException | Error ex) {
                    failed(ex);
                }
            }, name + "-" + index);
            thread.setDaemon(true);
            this.threads.add(thread);
        }
        this.threads.forEach(Thread::start);
    }

    boolean stopping() {
        return this.stopping;
    }

    /** Records a failure that the thread survived (e.g. one refused release). */
    void failed(Throwable failure) {
        this.failures.incrementAndGet();
        this.firstFailure.compareAndSet(null, failure);
    }

    int failures() {
        return this.failures.get();
    }

    @Nullable Throwable firstFailure() {
        return this.firstFailure.get();
    }

    /**
     * Asks every thread to stop, waits up to {@code grace} for them, then interrupts the rest and waits 5 s more.
     *
     * @throws IllegalStateException if a thread is still alive after that
     */
    void stop(Duration grace) throws InterruptedException {
        this.stopping = true;
        long deadline = System.nanoTime() + grace.toNanos();
        for (Thread thread : this.threads) {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
        List<Thread> alive = this.threads.stream().filter(Thread::isAlive).toList();
        alive.forEach(Thread::interrupt);
        for (Thread thread : alive) {
            thread.join(5_000);
            if (thread.isAlive()) {
                throw new IllegalStateException(thread.getName() + " did not end within " + grace
                        + " and 5 s after an interrupt; the lock under test hangs");
            }
        }
    }

    /** Waits until the given instant of {@link System#nanoTime()}. */
    static void sleepUntil(long nanoTime) throws InterruptedException {
        long left;
        while ((left = nanoTime - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }
}
