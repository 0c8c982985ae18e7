package dev.distlock.spring.aop;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fixed pool of threads for the calls a test class makes off the test thread (a lock is per thread). Registered on
 * a static field, it starts before the class's first test and is shut down after its last; the class fails if a
 * thread is still running 10 s later.
 */
final class TestThreads implements BeforeAllCallback, AfterAllCallback {

    private final int size;

    private ExecutorService executor;

    TestThreads(int size) {
        this.size = size;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        this.executor = Executors.newFixedThreadPool(this.size);
    }

    @Override
    public void afterAll(ExtensionContext context) throws InterruptedException {
        this.executor.shutdownNow();
        assertThat(this.executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    /** Starts {@code call} on one of the threads. */
    <T> Future<T> submit(Callable<T> call) {
        return this.executor.submit(call);
    }

    /** Starts {@code work} on one of the threads. */
    Future<?> submit(Runnable work) {
        return this.executor.submit(work);
    }

    /**
     * Runs {@code call} on one of the threads and waits up to 20 s for its result.
     *
     * @throws RuntimeException the one {@code call} threw, as is; any other failure as {@link IllegalStateException}
     */
    <T> T call(Callable<T> call) {
        try {
            return submit(call).get(20, TimeUnit.SECONDS);
        }
        catch (ExecutionException ex) {
            if (ex.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(ex.getCause());
        }
        catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }
}
