package dev.distlock.reliability;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.distlock.core.RedisLock;
import dev.distlock.core.LockClientOptions;
import dev.distlock.core.LockLease;
import dev.distlock.core.RedisLockClient;
import dev.distlock.testsupport.FencedCounter;
import dev.distlock.testsupport.LockEvent;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.RedisClusterClient;

/**
 * A lock holder in its own JVM, driven by lines on stdin, reporting {@link LockEvent} lines on stdout. Started by
 * {@link Worker}; a test can SIGSTOP or kill it, watchdog and all.
 *
 * <p>Arguments ({@code key=value}): {@code name}, {@code uri}, {@code leaseMs} (watchdog lease), {@code fencing},
 * {@code opTimeoutMs}, {@code backoffMs}, {@code offerMs} (handoff offer), {@code cluster} ({@code true}: {@code uri} is
 * a comma-separated list of Redis Cluster seed URIs).
 *
 * <p>Commands (one per line). Commands on one lock run in order on that lock's own long-lived holder thread (a
 * blocking acquisition belongs to its thread), so an acquire that waits delays only later commands on that lock:
 * <ul>
 *   <li>{@code acquire <lock> <waitMs> <leaseMs|0> [reentrant|fair|read|write]}: OK with the token, or FAIL; a loss
 *       listener reports LOST. {@code leaseMs} 0 means a watchdog lease.</li>
 *   <li>{@code read <lock>} / {@code write <lock>}: read the fenced counter named like the lock / write what was read
 *       plus one with the lease's token (WRITE_OK or WRITE_REJECTED). No {@code isHeld()} check: fencing is what
 *       protects the write.</li>
 *   <li>{@code end <lock>}: END with {@code held=} what {@code isHeld()} says; {@code release <lock>}: close the lease
 *       (RELEASED or RELEASE_FAIL).</li>
 *   <li>{@code status <lock>}, {@code stats}: NOTE events with the lease state / leases and waiting names.</li>
 *   <li>{@code loop <locks,...> <threads> <iterations> <maxMs> <holdMicros> <waitMs> <locked|nolock|unchecked>}:
 *       threads that repeatedly take a random lock and increment its fenced counter; {@code nolock} skips the lock
 *       (negative control), {@code unchecked} ends sections without asking {@code isHeld()}. Ends with a NOTE
 *       {@code loop-done}.</li>
 *   <li>{@code wait-many <lock> <threads> <waitMs> [kind]}: that many threads wait for the lock and release it as
 *       soon as they get it; NOTE {@code waiters-started}, then {@code wait-many-done acquired=.. failed=..}.</li>
 *   <li>{@code exit}: close the client and exit.</li>
 * </ul>
 */
public final class WorkerMain {

    private static final PrintStream OUT = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out),
            false, StandardCharsets.UTF_8);

    private static final java.util.Set<String> HOLDER_COMMANDS = java.util.Set.of("acquire", "read", "write", "end",
            "end-unchecked", "release");

    private final String name;
    private final RedisLockClient client;
    private final RedisCommands<String, String> counter;
    private final Map<String, LockLease> leases = new ConcurrentHashMap<>();
    private final Map<String, Long> readValues = new ConcurrentHashMap<>();
    private final Map<String, ExecutorService> holders = new ConcurrentHashMap<>();

    private WorkerMain(String name, RedisLockClient client, RedisCommands<String, String> counter) {
        this.name = name;
        this.client = client;
        this.counter = counter;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            options.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        String name = options.get("name");
        boolean cluster = Boolean.parseBoolean(options.getOrDefault("cluster", "false"));
        LockClientOptions lockOptions = LockClientOptions.builder()
                .watchdogLease(Duration.ofMillis(Long.parseLong(options.getOrDefault("leaseMs", "1500"))))
                .operationTimeout(Duration.ofMillis(Long.parseLong(options.getOrDefault("opTimeoutMs", "1000"))))
                .maxBackoff(Duration.ofMillis(Long.parseLong(options.getOrDefault("backoffMs", "500"))))
                .fencing(Boolean.parseBoolean(options.getOrDefault("fencing", "true")))
                .handoffOffer(Duration.ofMillis(Long.parseLong(options.getOrDefault("offerMs", "2000"))))
                .build();
        List<RedisURI> uris = new ArrayList<>();
        for (String each : cluster ? options.get("uri").split(",") : new String[] { options.get("uri") }) {
            RedisURI uri = RedisURI.create(each);
            uri.setTimeout(Duration.ofSeconds(2));
            uris.add(uri);
        }
        AbstractRedisClient redis = cluster ? RedisClusterClient.create(uris) : RedisClient.create(uris.get(0));
        RedisLockClient client = (redis instanceof RedisClusterClient clusterClient)
                ? RedisLockClient.create(clusterClient, lockOptions)
                : RedisLockClient.create((RedisClient) redis, lockOptions);
        RedisURI counterUri = options.containsKey("counterUri") ? RedisURI.create(options.get("counterUri")) : uris.get(0);
        StatefulRedisConnection<String, String> counterConnection = RedisClient.create(counterUri).connect();
        WorkerMain worker = new WorkerMain(name, client, counterConnection.sync());
        worker.emit(LockEvent.Type.NOTE, "-", 0, "ready pid=" + ProcessHandle.current().pid());
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String[] words = line.trim().split("\\s+");
            if (words[0].equals("exit")) {
                break;
            }
            // Blocking acquisitions belong to their thread (the client releases a hold whose thread died), so every
            // command on one lock runs on that lock's long-lived holder thread, in order; others run on their own.
            String lock = HOLDER_COMMANDS.contains(words[0]) ? words[1] : null;
            if (lock == null) {
                Thread command = new Thread(() -> worker.run(words), "cmd");
                command.setDaemon(true);
                command.start();
            }
            else {
                worker.holders.computeIfAbsent(lock, (key) -> Executors.newSingleThreadExecutor((task) -> {
                    Thread holder = new Thread(task, "holder-" + key);
                    holder.setDaemon(true);
                    return holder;
                })).execute(() -> worker.run(words));
            }
        }
        client.close();
        counterConnection.close();
        redis.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        System.exit(0);
    }

    private void run(String[] words) {
        try {
            switch (words[0]) {
                case "acquire" -> acquire(words[1], Long.parseLong(words[2]), Long.parseLong(words[3]),
                        (words.length > 4) ? words[4] : "reentrant");
                case "read" -> read(words[1]);
                case "write" -> write(words[1]);
                case "end" -> end(words[1], true);
                case "end-unchecked" -> end(words[1], false);
                case "release" -> release(words[1]);
                case "status" -> status(words[1]);
                case "stats" -> emit(LockEvent.Type.NOTE, "-", 0, "stats leases=" + this.client.activeLeaseCount()
                        + " waiting=" + this.client.waitingLockCount());
                case "wait-many" -> waitMany(words[1], Integer.parseInt(words[2]), Long.parseLong(words[3]),
                        (words.length > 4) ? words[4] : "reentrant");
                case "loop" -> loop(Arrays.asList(words[1].split(",")), Integer.parseInt(words[2]),
                        Integer.parseInt(words[3]), Long.parseLong(words[4]), Long.parseLong(words[5]),
                        Long.parseLong(words[6]), words[7]);
                default -> emit(LockEvent.Type.NOTE, "-", 0, "error=unknown-command " + String.join(" ", words));
            }
        }
        catch (Throwable ex) {
            emit(LockEvent.Type.NOTE, "-", 0, "error=" + ex.getClass().getSimpleName() + " message="
                    + String.valueOf(ex.getMessage()).replace(' ', '_'));
        }
    }

    private RedisLock lock(String lock, String kind) {
        return switch (kind) {
            case "fair" -> this.client.getFairLock(lock);
            case "read" -> this.client.getReadWriteLock(lock).readLock();
            case "write" -> this.client.getReadWriteLock(lock).writeLock();
            default -> this.client.getLock(lock);
        };
    }

    private void acquire(String lock, long waitMs, long leaseMs, String kind) {
        emit(LockEvent.Type.INVOKE, lock, 0, "kind=" + kind);
        LockLease lease;
        try {
            RedisLock target = lock(lock, kind);
            lease = (leaseMs > 0)
                    ? target.tryAcquire(Duration.ofMillis(waitMs), Duration.ofMillis(leaseMs)).orElse(null)
                    : target.tryAcquire(Duration.ofMillis(waitMs)).orElse(null);
        }
        catch (Exception ex) {
            emit(LockEvent.Type.FAIL, lock, 0, "reason=" + ex.getClass().getSimpleName());
            return;
        }
        if (lease == null) {
            emit(LockEvent.Type.FAIL, lock, 0, "reason=not-acquired");
            return;
        }
        this.leases.put(lock, lease);
        emit(LockEvent.Type.OK, lock, lease.fencingToken(), "kind=" + kind + " validityMs="
                + lease.remainingValidity().toMillis());
        lease.addLossListener((loss) -> emit(LockEvent.Type.LOST, lock, loss.fencingToken(),
                "reason=" + loss.reason()));
    }

    private void read(String lock) {
        long value = FencedCounter.read(this.counter, lock);
        this.readValues.put(lock, value);
        emit(LockEvent.Type.READ, lock, 0, "value=" + value);
    }

    private void write(String lock) {
        LockLease lease = this.leases.get(lock);
        long token = (lease != null) ? lease.fencingToken() : 0;
        long value = this.readValues.getOrDefault(lock, 0L) + 1;
        boolean accepted = FencedCounter.write(this.counter, lock, token, value);
        emit(accepted ? LockEvent.Type.WRITE_OK : LockEvent.Type.WRITE_REJECTED, lock, token, "value=" + value
                + " heldNow=" + (lease != null && lease.isHeld()));
    }

    private void end(String lock, boolean check) {
        LockLease lease = this.leases.get(lock);
        long now = System.nanoTime();
        String held = !check ? "unchecked" : Boolean.toString(lease != null && lease.isHeld());
        emit(new LockEvent(now, this.name, Thread.currentThread().getName(), LockEvent.Type.END, lock,
                (lease != null) ? lease.fencingToken() : 0, "held=" + held));
    }

    private void release(String lock) {
        LockLease lease = this.leases.remove(lock);
        if (lease == null) {
            emit(LockEvent.Type.RELEASE_FAIL, lock, 0, "reason=no-lease");
            return;
        }
        try {
            lease.close();
            emit(LockEvent.Type.RELEASED, lock, lease.fencingToken(), "");
        }
        catch (RuntimeException ex) {
            emit(LockEvent.Type.RELEASE_FAIL, lock, lease.fencingToken(), "reason=" + ex.getClass().getSimpleName());
        }
    }

    private void status(String lock) {
        LockLease lease = this.leases.get(lock);
        emit(LockEvent.Type.NOTE, lock, (lease != null) ? lease.fencingToken() : 0, "status held="
                + (lease != null && lease.isHeld()) + " remainingMs="
                + ((lease != null) ? lease.remainingValidity().toMillis() : 0));
    }

    /** {@code threads} threads that each wait for the lock, then release it at once. */
    private void waitMany(String lock, int threads, long waitMs, String kind) throws InterruptedException {
        AtomicLong acquired = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        Thread[] waiters = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            waiters[t] = new Thread(() -> {
                try {
                    LockLease lease = lock(lock, kind).tryAcquire(Duration.ofMillis(waitMs)).orElse(null);
                    if (lease == null) {
                        failed.incrementAndGet();
                        return;
                    }
                    acquired.incrementAndGet();
                    lease.close();
                }
                catch (Exception ex) {
                    failed.incrementAndGet();
                }
            }, this.name + "-waiter-" + t);
            waiters[t].start();
        }
        emit(LockEvent.Type.NOTE, lock, 0, "waiters-started count=" + threads);
        for (Thread waiter : waiters) {
            waiter.join();
        }
        emit(LockEvent.Type.NOTE, lock, 0, "wait-many-done acquired=" + acquired.get() + " failed=" + failed.get());
    }

    private void loop(List<String> locks, int threads, int iterations, long maxMs, long holdMicros, long waitMs,
            String mode) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxMs);
        AtomicLong sections = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            workers[t] = new Thread(() -> {
                for (int i = 0; i < iterations && System.nanoTime() - deadline < 0; i++) {
                    String lock = locks.get(ThreadLocalRandom.current().nextInt(locks.size()));
                    if (section(lock, waitMs, holdMicros, mode)) {
                        sections.incrementAndGet();
                    }
                    else {
                        failures.incrementAndGet();
                    }
                }
            }, this.name + "-loop-" + t);
            workers[t].start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        emit(LockEvent.Type.NOTE, "-", 0, "loop-done sections=" + sections.get() + " failures=" + failures.get());
    }

    /** One critical section: acquire, read, hold, fenced write, end, release. */
    private boolean section(String lock, long waitMs, long holdMicros, String mode) {
        LockLease lease = null;
        long token = 0;
        if (!mode.equals("nolock")) {
            try {
                lease = this.client.getLock(lock).tryAcquire(Duration.ofMillis(waitMs)).orElse(null);
            }
            catch (Exception ex) {
                emit(LockEvent.Type.FAIL, lock, 0, "reason=" + ex.getClass().getSimpleName());
                if (ex instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                return false;
            }
            if (lease == null) {
                emit(LockEvent.Type.FAIL, lock, 0, "reason=not-acquired");
                return false;
            }
            try {
                // The first call mints a blocking acquisition's token (one round trip): it can fail like any call.
                token = lease.fencingToken();
            }
            catch (RuntimeException ex) {
                emit(LockEvent.Type.FAIL, lock, 0, "reason=token-" + ex.getClass().getSimpleName());
                try {
                    lease.close();
                }
                catch (RuntimeException closing) {
                    emit(LockEvent.Type.RELEASE_FAIL, lock, 0, "reason=" + closing.getClass().getSimpleName());
                }
                return false;
            }
        }
        emit(LockEvent.Type.OK, lock, token, "");
        try {
            long value = FencedCounter.read(this.counter, lock);
            if (holdMicros > 0) {
                TimeUnit.MICROSECONDS.sleep(ThreadLocalRandom.current().nextLong(holdMicros + 1));
            }
            boolean accepted = FencedCounter.write(this.counter, lock, token, value + 1);
            emit(accepted ? LockEvent.Type.WRITE_OK : LockEvent.Type.WRITE_REJECTED, lock, token, "value="
                    + (value + 1));
        }
        catch (Exception ex) {
            emit(LockEvent.Type.NOTE, lock, token, "error=" + ex.getClass().getSimpleName());
        }
        long endNanos = System.nanoTime();
        String held = (lease == null || mode.equals("unchecked")) ? "unchecked" : Boolean.toString(lease.isHeld());
        emit(new LockEvent(endNanos, this.name, Thread.currentThread().getName(), LockEvent.Type.END, lock, token,
                "held=" + held));
        if (lease != null) {
            try {
                lease.close();
                emit(LockEvent.Type.RELEASED, lock, token, "");
            }
            catch (RuntimeException ex) {
                emit(LockEvent.Type.RELEASE_FAIL, lock, token, "reason=" + ex.getClass().getSimpleName());
            }
        }
        return true;
    }

    private void emit(LockEvent.Type type, String lock, long token, String info) {
        emit(LockEvent.now(this.name, type, lock, token, info));
    }

    private static void emit(LockEvent event) {
        synchronized (OUT) {
            OUT.println(event.toLine());
            OUT.flush();
        }
    }
}
