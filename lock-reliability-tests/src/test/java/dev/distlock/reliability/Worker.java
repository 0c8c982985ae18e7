package dev.distlock.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import dev.distlock.testsupport.ChildJvm;
import dev.distlock.testsupport.History;
import dev.distlock.testsupport.LockEvent;

/**
 * A {@link WorkerMain} in a child JVM: commands go to its stdin, its events land in a shared {@link History}.
 * {@link #close()} asks it to exit and kills it if it does not.
 */
final class Worker implements AutoCloseable {

    /** Bound on a child JVM's start, including connecting to Redis. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final String name;
    private final ChildJvm jvm;
    private final History history;

    private Worker(String name, ChildJvm jvm, History history) {
        this.name = name;
        this.jvm = jvm;
        this.history = history;
    }

    /**
     * Starts a worker and waits until it is connected.
     *
     * @param options {@code key=value} arguments of {@link WorkerMain} besides name and uri
     */
    static Worker start(String name, String uri, History history, String... options) {
        return start(WorkerMain.class, name, uri, history, options);
    }

    /**
     * Starts a child JVM running {@code mainClass}, which speaks the same line protocol as {@link WorkerMain} (a
     * {@code ready} NOTE first, {@code exit} on stdin), and waits until it is ready.
     */
    static Worker start(Class<?> mainClass, String name, String uri, History history, String... options) {
        List<String> args = new ArrayList<>(List.of("name=" + name, "uri=" + uri));
        args.addAll(List.of(options));
        ChildJvm jvm = ChildJvm.start(name, mainClass.getName(), ChildJvm.SMALL_JVM, args, history::addLine);
        Worker worker = new Worker(name, jvm, history);
        try {
            worker.await("ready", START_TIMEOUT, e -> e.type() == LockEvent.Type.NOTE && e.info().startsWith("ready"));
        }
        catch (AssertionError e) {
            String log = jvm.logTail(30);
            jvm.close();
            throw new AssertionError(e.getMessage() + "\nstderr of " + name + ":\n" + log, e);
        }
        return worker;
    }

    /** Starts several workers in parallel (JVM start-up dominates) and waits until all are connected. */
    static List<Worker> startAll(int count, String prefix, String uri, History history, String... options) {
        return startAll(WorkerMain.class, count, prefix, uri, history, options);
    }

    /** Like {@link #startAll(int, String, String, History, String...)} with another main class. */
    static List<Worker> startAll(Class<?> mainClass, int count, String prefix, String uri, History history,
            String... options) {
        List<Worker> workers = new ArrayList<>();
        List<ChildJvm> jvms = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                String name = prefix + i;
                List<String> args = new ArrayList<>(List.of("name=" + name, "uri=" + uri));
                args.addAll(List.of(options));
                ChildJvm jvm = ChildJvm.start(name, mainClass.getName(), ChildJvm.SMALL_JVM, args,
                        history::addLine);
                jvms.add(jvm);
                workers.add(new Worker(name, jvm, history));
            }
            for (Worker worker : workers) {
                worker.await("ready", START_TIMEOUT, e -> e.type() == LockEvent.Type.NOTE
                        && e.info().startsWith("ready"));
            }
            return workers;
        }
        catch (RuntimeException | AssertionError e) {
            jvms.forEach(ChildJvm::close);
            throw e;
        }
    }

    String name() {
        return this.name;
    }

    long pid() {
        return this.jvm.pid();
    }

    void send(String command) {
        this.jvm.send(command);
    }

    /** Waits for an event of this worker. */
    LockEvent await(String what, Duration timeout, Predicate<LockEvent> match) {
        return this.history.await(this.name + ": " + what, timeout, e -> e.process().equals(this.name)
                && match.test(e));
    }

    /** Waits for the next event of a type on a lock that arrives after {@code afterNanos}. */
    LockEvent await(LockEvent.Type type, String lock, long afterNanos, Duration timeout) {
        return await(type + " on " + lock, timeout, e -> e.type() == type && e.lock().equals(lock)
                && e.nanos() >= afterNanos);
    }

    /** Sends {@code acquire} and waits for OK or FAIL. */
    LockEvent acquire(String lock, Duration wait, Duration lease, Duration timeout) {
        long sent = System.nanoTime();
        send("acquire " + lock + " " + wait.toMillis() + " " + lease.toMillis());
        return await("acquire " + lock, timeout, e -> e.lock().equals(lock) && e.nanos() >= sent
                && (e.type() == LockEvent.Type.OK || e.type() == LockEvent.Type.FAIL));
    }

    void pause() {
        this.jvm.pause();
    }

    void resume() {
        this.jvm.resume();
    }

    void kill9() {
        this.jvm.kill9();
    }

    boolean isAlive() {
        return this.jvm.isAlive();
    }

    String logTail(int lines) {
        return this.jvm.logTail(lines);
    }

    @Override
    public void close() {
        try {
            if (this.jvm.isAlive()) {
                this.jvm.resume();
                this.jvm.send("exit");
                this.jvm.awaitExit(Duration.ofSeconds(5));
            }
        }
        catch (RuntimeException e) {
            // killed below
        }
        finally {
            this.jvm.close();
        }
    }
}
