package dev.distlock.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.distlock.testsupport.History;
import dev.distlock.testsupport.LockEvent;

/** The worker JVMs of one test and their shared history; {@link #close()} ends every one. */
final class WorkerGroup implements AutoCloseable {

    final History history = new History();

    private final List<Worker> workers = new ArrayList<>();

    Worker start(String name, String uri, String... options) {
        Worker worker = Worker.start(name, uri, this.history, options);
        this.workers.add(worker);
        return worker;
    }

    List<Worker> startAll(int count, String prefix, String uri, String... options) {
        return startAll(WorkerMain.class, count, prefix, uri, options);
    }

    /** Child JVMs running another main class that speaks {@link WorkerMain}'s line protocol. */
    List<Worker> startAll(Class<?> mainClass, int count, String prefix, String uri, String... options) {
        List<Worker> started = Worker.startAll(mainClass, count, prefix, uri, this.history, options);
        this.workers.addAll(started);
        return started;
    }

    /** Asks every live worker for its lease and waiter counts and returns the NOTE events. */
    List<LockEvent> stats(Duration timeout) {
        List<LockEvent> stats = new ArrayList<>();
        for (Worker worker : this.workers) {
            if (worker.isAlive()) {
                long sent = System.nanoTime();
                worker.send("stats");
                stats.add(worker.await("stats", timeout, e -> e.type() == LockEvent.Type.NOTE && e.nanos() >= sent
                        && e.info().startsWith("stats")));
            }
        }
        return stats;
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        for (Worker worker : this.workers) {
            try {
                worker.close();
            }
            catch (RuntimeException e) {
                failure = (failure == null) ? e : failure;
            }
        }
        this.workers.clear();
        if (failure != null) {
            throw failure;
        }
    }
}
