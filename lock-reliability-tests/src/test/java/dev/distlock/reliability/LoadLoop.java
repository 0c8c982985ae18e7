package dev.distlock.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import dev.distlock.core.RedisLock;
import dev.distlock.core.LockLease;
import dev.distlock.testsupport.FencedCounter;
import dev.distlock.testsupport.History;
import dev.distlock.testsupport.LockEvent;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * In-process load: threads that repeatedly take a random lock, increment its fenced counter (read, short hold,
 * fenced write) and release, recording {@link LockEvent}s in a {@link History} exactly like {@link WorkerMain}'s loop.
 * Bounded in iterations and time. Errors are counted by type and message, never thrown.
 */
final class LoadLoop {

    private final String process;
    private final Function<String, RedisLock> locks;
    private final List<String> names;
    private final RedisCommands<String, String> counter;
    private final History history;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong sections = new AtomicLong();
    private final AtomicLong notAcquired = new AtomicLong();
    private final Map<String, AtomicLong> errors = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> sectionsByThread = new ConcurrentHashMap<>();
    private volatile boolean stopped;
    private volatile long lastSectionNanos = System.nanoTime();
    private final AtomicLong longestGapNanos = new AtomicLong();

    /**
     * @param counter where the fenced counters live, or null to skip the read-modify-write
     */
    LoadLoop(String process, Function<String, RedisLock> locks, List<String> names,
            RedisCommands<String, String> counter, History history) {
        this.process = process;
        this.locks = locks;
        this.names = names;
        this.counter = counter;
        this.history = history;
    }

    /** Starts {@code threads} threads, each running at most {@code iterations} sections until {@link #stop()}. */
    LoadLoop start(int threadCount, int iterations, Duration wait, long holdMicros) {
        for (int t = 0; t < threadCount; t++) {
            Thread thread = new Thread(() -> run(iterations, wait, holdMicros), this.process + "-" + t);
            thread.setDaemon(true);
            this.threads.add(thread);
            thread.start();
        }
        return this;
    }

    /** Stops the threads after their current section and waits for them (bounded). */
    LoadLoop stop(Duration timeout) throws InterruptedException {
        this.stopped = true;
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Thread thread : this.threads) {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (thread.isAlive()) {
                throw new AssertionError(thread.getName() + " did not finish its section within " + timeout);
            }
        }
        return this;
    }

    /** Waits until every thread finished its iterations (bounded). */
    LoadLoop join(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Thread thread : this.threads) {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
        return stop(Duration.ofSeconds(10));
    }

    long sections() {
        return this.sections.get();
    }

    long notAcquired() {
        return this.notAcquired.get();
    }

    /** Error counts by {@code ExceptionType: first words of the message}. */
    Map<String, AtomicLong> errors() {
        return this.errors;
    }

    long errorCount() {
        return this.errors.values().stream().mapToLong(AtomicLong::get).sum();
    }

    /** Errors whose description contains {@code text} (case-insensitive). */
    long errorsContaining(String text) {
        return this.errors.entrySet().stream().filter((e) -> e.getKey().toLowerCase().contains(text.toLowerCase()))
            .mapToLong((e) -> e.getValue().get()).sum();
    }

    /** Sections completed per thread. */
    Map<String, AtomicLong> sectionsByThread() {
        return this.sectionsByThread;
    }

    /** Longest time in which no thread completed a section. */
    Duration longestGap() {
        return Duration.ofNanos(Math.max(this.longestGapNanos.get(), System.nanoTime() - this.lastSectionNanos));
    }

    private void run(int iterations, Duration wait, long holdMicros) {
        String thread = Thread.currentThread().getName();
        this.sectionsByThread.put(thread, new AtomicLong());
        for (int i = 0; i < iterations && !this.stopped; i++) {
            String name = this.names.get(ThreadLocalRandom.current().nextInt(this.names.size()));
            try {
                section(name, wait, holdMicros);
            }
            catch (InterruptedException ex) {
                return;
            }
            catch (RuntimeException ex) {
                error(ex);
                try {
                    Thread.sleep(5);
                }
                catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    private void section(String name, Duration wait, long holdMicros) throws InterruptedException {
        LockLease lease = this.locks.apply(name).tryAcquire(wait).orElse(null);
        if (lease == null) {
            this.notAcquired.incrementAndGet();
            emit(LockEvent.Type.FAIL, name, 0, "reason=not-acquired");
            return;
        }
        long token;
        try {
            // A blocking acquisition's first fencingToken() call mints it (one round trip), which can fail like any
            // Redis call: the lease is closed, as a caller's try-with-resources would.
            token = lease.fencingToken();
        }
        catch (RuntimeException ex) {
            closeQuietly(lease);
            throw ex;
        }
        emit(LockEvent.Type.OK, name, token, "");
        lease.addLossListener((loss) -> emit(LockEvent.Type.LOST, name, token, "reason=" + loss.reason()));
        try {
            if (this.counter != null) {
                long value = FencedCounter.read(this.counter, name);
                if (holdMicros > 0) {
                    TimeUnit.MICROSECONDS.sleep(ThreadLocalRandom.current().nextLong(holdMicros + 1));
                }
                boolean accepted = FencedCounter.write(this.counter, name, token, value + 1);
                emit(accepted ? LockEvent.Type.WRITE_OK : LockEvent.Type.WRITE_REJECTED, name, token, "value="
                        + (value + 1));
            }
            else if (holdMicros > 0) {
                TimeUnit.MICROSECONDS.sleep(ThreadLocalRandom.current().nextLong(holdMicros + 1));
            }
        }
        catch (RuntimeException ex) {
            error(ex);
        }
        finally {
            long end = System.nanoTime();
            boolean held = lease.isHeld();
            this.history.add(new LockEvent(end, this.process, Thread.currentThread().getName(), LockEvent.Type.END,
                    name, token, "held=" + held));
            try {
                lease.close();
                emit(LockEvent.Type.RELEASED, name, token, "");
            }
            catch (RuntimeException ex) {
                error(ex);
                emit(LockEvent.Type.RELEASE_FAIL, name, token, "reason=" + ex.getClass().getSimpleName());
            }
        }
        this.sections.incrementAndGet();
        this.sectionsByThread.get(Thread.currentThread().getName()).incrementAndGet();
        long now = System.nanoTime();
        this.longestGapNanos.accumulateAndGet(now - this.lastSectionNanos, Math::max);
        this.lastSectionNanos = now;
    }

    private void closeQuietly(LockLease lease) {
        try {
            lease.close();
        }
        catch (RuntimeException ex) {
            error(ex);
        }
    }

    private void error(Throwable ex) {
        this.errors.computeIfAbsent(pattern(describe(ex)), (k) -> new AtomicLong()).incrementAndGet();
    }

    /** Exception type and message, with the causes' messages, so NOSCRIPT or CROSSSLOT deep inside shows. */
    static String describe(Throwable ex) {
        StringBuilder text = new StringBuilder(ex.getClass().getSimpleName());
        Throwable current = ex;
        int depth = 0;
        while (current != null && depth++ < 5) {
            String message = String.valueOf(current.getMessage());
            text.append(": ").append(message, 0, Math.min(message.length(), 120));
            current = current.getCause();
        }
        return text.toString();
    }

    /** A description with lock names and numbers blanked, so equal failures count together. */
    static String pattern(String description) {
        return description.replaceAll("'[^']*'", "'*'").replaceAll("[0-9]+", "N");
    }

    private void emit(LockEvent.Type type, String lock, long token, String info) {
        this.history.add(LockEvent.now(this.process, type, lock, token, info));
    }
}
