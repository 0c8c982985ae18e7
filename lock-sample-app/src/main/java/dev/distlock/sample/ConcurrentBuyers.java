package dev.distlock.sample;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * Runs {@code n} buyers at once, one thread each, released together by a start gate, and collects what each was told.
 * Bounded in threads ({@link #MAX_BUYERS}) and in time: buyers still running at the deadline are interrupted and
 * reported as failures.
 */
final class ConcurrentBuyers {

    /** Most buyers one run accepts. */
    static final int MAX_BUYERS = 200;

    private ConcurrentBuyers() {
    }

    /**
     * One buyer's result: the reservation, or why there was none.
     *
     * @param reservation what the buyer was told, or null when it failed
     * @param failure the failure's message, or null
     */
    record Result(@org.jspecify.annotations.Nullable Reservation reservation,
            @org.jspecify.annotations.Nullable String failure) {
    }

    /**
     * @param buyers how many, 1 to {@link #MAX_BUYERS}
     * @param buyer reserves for buyer number {@code i}
     * @param deadline how long the whole run may take
     * @return one result per buyer, in buyer order
     */
    static List<Result> run(int buyers, IntFunction<Reservation> buyer, Duration deadline) {
        if (buyers < 1 || buyers > MAX_BUYERS) {
            throw new IllegalArgumentException("buyers must be 1 to " + MAX_BUYERS + ", was " + buyers);
        }
        AtomicInteger threads = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(buyers,
                (task) -> new Thread(task, "buyer-" + threads.incrementAndGet()));
        try {
            CountDownLatch gate = new CountDownLatch(1);
            List<Future<Reservation>> futures = new ArrayList<>(buyers);
            for (int i = 0; i < buyers; i++) {
                int number = i;
                futures.add(pool.submit(() -> {
                    gate.await();
                    return buyer.apply(number);
                }));
            }
            gate.countDown();
            long end = System.nanoTime() + deadline.toNanos();
            List<Result> results = new ArrayList<>(buyers);
            for (Future<Reservation> future : futures) {
                results.add(await(future, end));
            }
            return results;
        }
        finally {
            pool.shutdownNow();
        }
    }

    private static Result await(Future<Reservation> future, long end) {
        try {
            return new Result(future.get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS), null);
        }
        catch (ExecutionException ex) {
            Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
            return new Result(null, cause.getClass().getSimpleName() + ": " + cause.getMessage());
        }
        catch (TimeoutException ex) {
            future.cancel(true);
            return new Result(null, "still running at the deadline");
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            future.cancel(true);
            return new Result(null, "interrupted");
        }
    }
}
