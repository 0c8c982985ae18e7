package dev.distlock.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * Starts several servers at once. All or nothing: if one fails, the others are stopped and the first failure
 * is thrown (with the rest suppressed).
 */
final class ParallelStart {

    private static final int MAX_THREADS = 8;
    private static final AtomicInteger THREADS = new AtomicInteger();

    private ParallelStart() {
    }

    static List<RedisServer> start(int count, IntFunction<RedisServer> starter) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1: " + count);
        }
        ExecutorService executor = Executors.newFixedThreadPool(Math.min(count, MAX_THREADS), task -> {
            Thread thread = new Thread(task, "distlock-redis-start-" + THREADS.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<RedisServer>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int index = i;
                futures.add(executor.submit(() -> starter.apply(index)));
            }
            List<RedisServer> started = new ArrayList<>();
            RuntimeException failure = null;
            for (Future<RedisServer> future : futures) {
                // each start is bounded by its own startup timeout, so waiting for all of them is bounded too
                try {
                    started.add(future.get());
                } catch (ExecutionException | InterruptedException e) {
                    if (e instanceof InterruptedException) {
                        Thread.currentThread().interrupt();
                    }
                    RuntimeException cause = asRuntime(e);
                    if (failure == null) {
                        failure = cause;
                    } else {
                        failure.addSuppressed(cause);
                    }
                }
            }
            if (failure != null) {
                Closing.stopAll(started, failure);
                throw failure;
            }
            return List.copyOf(started);
        } finally {
            executor.shutdownNow();
        }
    }

    private static RuntimeException asRuntime(Exception e) {
        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        return cause instanceof RuntimeException runtime
                ? runtime
                : new RedisServerException("Could not start redis-server", cause);
    }
}
