package dev.distlock.benchmarks.contention;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisURI;

/**
 * Client instances of one subject, opened once and reused by every scenario (each scenario uses the first N and its
 * own key). Opening and closing run a few at a time, because each instance starts its own Lettuce client.
 */
final class ClientPool implements AutoCloseable {

    private static final int PARALLELISM = 4;

    private final List<LockClient> clients;

    private ClientPool(List<LockClient> clients) {
        this.clients = clients;
    }

    static ClientPool open(LockSubject subject, RedisURI uri, int size) throws InterruptedException {
        List<LockClient> opened = new ArrayList<>();
        ExecutorService executor = Executors.newFixedThreadPool(PARALLELISM);
        try {
            List<Future<LockClient>> pending = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                pending.add(executor.submit(() -> subject.open(uri)));
            }
            RuntimeException failure = null;
            for (Future<LockClient> future : pending) {
                try {
                    opened.add(future.get());
                }
                catch (ExecutionException ex) {
                    failure = new IllegalStateException("could not open a " + subject.label() + " client",
                            ex.getCause());
                }
            }
            if (failure != null) {
                new ClientPool(opened).close();
                throw failure;
            }
            return new ClientPool(opened);
        }
        finally {
            executor.shutdown();
            executor.awaitTermination(1, TimeUnit.MINUTES);
        }
    }

    /** The first {@code count} instances. */
    List<LockClient> first(int count) {
        return this.clients.subList(0, count);
    }

    @Override
    public void close() {
        ExecutorService executor = Executors.newFixedThreadPool(PARALLELISM);
        try {
            this.clients.forEach(client -> executor.execute(client::close));
        }
        finally {
            executor.shutdown();
            try {
                if (!executor.awaitTermination(2, TimeUnit.MINUTES)) {
                    throw new IllegalStateException("client instances did not close within 2 minutes");
                }
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
