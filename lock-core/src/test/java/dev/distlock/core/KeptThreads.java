package dev.distlock.core;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs blocking acquisitions on threads of their own that stay alive until the test ends. A lease a blocking call
 * acquires belongs to its thread, and the client releases it once that thread has terminated; a common-pool thread
 * ({@code CompletableFuture.supplyAsync}) may be retired as soon as it idles, taking a lease the test still uses with
 * it. Register it as a field with {@code @RegisterExtension}.
 */
final class KeptThreads implements AfterEachCallback {

    private final CountDownLatch ended = new CountDownLatch(1);

    private final List<Thread> threads = new CopyOnWriteArrayList<>();

    /** Runs {@code body} on a new thread, which then waits for the end of the test (at most 2 minutes). */
    <T> CompletableFuture<T> run(String name, Callable<T> body) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                result.complete(body.call());
            }
            catch (Throwable ex) {
                result.completeExceptionally(ex);
            }
            try {
                this.ended.await(2, TimeUnit.MINUTES);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }, name);
        thread.setDaemon(true);
        this.threads.add(thread);
        thread.start();
        return result;
    }

    @Override
    public void afterEach(ExtensionContext context) throws InterruptedException {
        this.ended.countDown();
        for (Thread thread : this.threads) {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        }
    }
}
