package dev.distlock.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.distlock.core.LockLease;
import dev.distlock.core.RedisLockClient;
import dev.distlock.testsupport.RedisServer;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * Load whose every grant is checked against the servers: threads take uncontended locks with one attempt each and,
 * while holding, ask every running data server directly whether its lock key holds the grant's hold ({@code owner|token}: the
 * acquire script writes it on the server that granted). So each grant is attributed to the
 * server that made it, whatever the client believes its master is. Bounded in iterations and time.
 */
final class AuditedGrants {

    /**
     * One grant.
     *
     * @param sentAt when the acquire was called ({@code System.nanoTime})
     * @param grantedAt when it returned the lease
     * @param holders ports of the data servers whose lock key held the grant's token just after
     */
    record Grant(long sentAt, long grantedAt, Set<Integer> holders) {
    }

    private final RedisLockClient client;

    private final Map<RedisServer, RedisCommands<String, String>> servers = new LinkedHashMap<>();

    private final ConcurrentLinkedQueue<Grant> grants = new ConcurrentLinkedQueue<>();

    private final AtomicLong failures = new AtomicLong();

    private final List<Thread> threads = new ArrayList<>();

    private volatile boolean stopped;

    AuditedGrants(RedisLockClient client, List<RedisServer> dataServers, Clients clients) {
        this.client = client;
        for (RedisServer server : dataServers) {
            RedisCommands<String, String> raw = clients.raw(server.uri());
            // a killed or restarting server must not hold the load up for long
            raw.getStatefulConnection().setTimeout(Duration.ofMillis(300));
            this.servers.put(server, raw);
        }
    }

    /** Starts {@code threadCount} threads, each with its own lock names, for at most {@code maxRun}. */
    AuditedGrants start(int threadCount, Duration maxRun, int maxIterations) {
        long deadline = System.nanoTime() + maxRun.toNanos();
        for (int t = 0; t < threadCount; t++) {
            String prefix = "f21-" + t + "-";
            Thread thread = new Thread(() -> run(prefix, deadline, maxIterations), "f21-audit-" + t);
            thread.setDaemon(true);
            this.threads.add(thread);
            thread.start();
        }
        return this;
    }

    private void run(String prefix, long deadline, int maxIterations) {
        for (int i = 0; i < maxIterations && !this.stopped && System.nanoTime() - deadline < 0; i++) {
            String name = prefix + (i % 4);
            long sentAt = System.nanoTime();
            try {
                LockLease lease = this.client.getLock(name).tryAcquire(Duration.ZERO).orElse(null);
                long grantedAt = System.nanoTime();
                if (lease == null) {
                    // the name is still held by a grant whose release was lost in the switch: try another
                    continue;
                }
                this.grants.add(new Grant(sentAt, grantedAt, holdersOf(name, lease.fencingToken())));
                try {
                    lease.close();
                }
                catch (RuntimeException ex) {
                    // released in the background or expires with its lease
                }
            }
            catch (RuntimeException ex) {
                this.failures.incrementAndGet();
                pause();
            }
            catch (InterruptedException ex) {
                return;
            }
        }
    }

    private Set<Integer> holdersOf(String name, long token) {
        Set<Integer> holders = new HashSet<>();
        String expected = "|" + token;
        for (Map.Entry<RedisServer, RedisCommands<String, String>> server : this.servers.entrySet()) {
            if (!server.getKey().isRunning()) {
                continue;
            }
            try {
                String hold = server.getValue().get("lock:{" + name + "}");
                if (hold != null && hold.endsWith(expected)) {
                    holders.add(server.getKey().port());
                }
            }
            catch (RuntimeException ex) {
                // restarting or unreachable: it holds nothing we can see
            }
        }
        return holders;
    }

    private static void pause() {
        try {
            Thread.sleep(5);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the threads and waits for them (bounded). */
    void stop(Duration timeout) throws InterruptedException {
        this.stopped = true;
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Thread thread : this.threads) {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (thread.isAlive()) {
                throw new AssertionError(thread.getName() + " did not stop within " + timeout);
            }
        }
    }

    List<Grant> grants() {
        return List.copyOf(this.grants);
    }

    long failures() {
        return this.failures.get();
    }
}
