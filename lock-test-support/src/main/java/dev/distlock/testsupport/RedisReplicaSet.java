package dev.distlock.testsupport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.RedisException;

/**
 * A Redis master plus N replicas ({@code --replicaof 127.0.0.1 <masterPort>}), each a {@link RedisServer}.
 *
 * <p>Promises: when {@link #start(int)} returns, every replica reports {@code master_link_status:up} in
 * {@code INFO replication} and the master lists it as online, i.e. it has completed its initial sync and
 * follows the master. The master runs with {@code --repl-diskless-sync-delay 0} (unless the options say
 * otherwise), so a full sync starts at once. Writes to the master
 * still reach replicas asynchronously; use {@code WAIT} to wait for them. If the master has a password
 * ({@link RedisServerOptions#withPassword(String)}), replicas get it as {@code --masterauth}. {@link #close()}
 * stops the replicas, then the master.
 */
public final class RedisReplicaSet implements AutoCloseable {

    /** Default bound on waiting for the replicas to be in sync. */
    public static final Duration DEFAULT_SYNC_TIMEOUT = Duration.ofSeconds(10);

    private static final Duration POLL_INTERVAL = Duration.ofMillis(20);

    private final RedisServer master;
    private final List<RedisServer> replicas;

    private RedisReplicaSet(RedisServer master, List<RedisServer> replicas) {
        this.master = master;
        this.replicas = List.copyOf(replicas);
    }

    /**
     * Starts a master and {@code replicaCount} replicas with default options, and waits until they are in sync.
     *
     * @param replicaCount how many replicas, at least 1
     * @return the running, synced set
     * @throws RedisServerException if a server cannot be started or a replica does not sync in time
     */
    public static RedisReplicaSet start(int replicaCount) {
        return start(replicaCount, RedisServerOptions.defaults());
    }

    /**
     * Starts a master and {@code replicaCount} replicas (in parallel), all with the given options plus
     * {@code --replicaof} for the replicas, and waits until they are in sync (bounded by
     * {@link #DEFAULT_SYNC_TIMEOUT} or the options' startup timeout, whichever is longer).
     *
     * @param replicaCount how many replicas, at least 1
     * @param options      extra arguments and time bounds for every server
     * @return the running, synced set
     * @throws RedisServerException if a server cannot be started or a replica does not sync in time
     */
    public static RedisReplicaSet start(int replicaCount, RedisServerOptions options) {
        if (replicaCount < 1) {
            throw new IllegalArgumentException("replicaCount must be at least 1: " + replicaCount);
        }
        // no 5 s wait for more replicas before a diskless full sync (Redis 7 default); the caller's args still win
        RedisServerOptions masterOptions = new RedisServerOptions(List.of("--repl-diskless-sync-delay", "0"),
                options.startupTimeout(), options.stopTimeout()).withArgs(options.extraArgs());
        RedisServer master = RedisServer.start(masterOptions);
        try {
            RedisServerOptions replicaOptions = options.withReplicaOf(master.host(), master.port());
            if (options.password().isPresent()) {
                replicaOptions = replicaOptions.withArgs("--masterauth", options.password().get());
            }
            RedisServerOptions finalOptions = replicaOptions;
            List<RedisServer> replicas = ParallelStart.start(replicaCount, index -> RedisServer.start(finalOptions));
            RedisReplicaSet set = new RedisReplicaSet(master, replicas);
            try {
                Duration timeout = options.startupTimeout().compareTo(DEFAULT_SYNC_TIMEOUT) > 0
                        ? options.startupTimeout() : DEFAULT_SYNC_TIMEOUT;
                set.awaitReplicasInSync(timeout);
            } catch (RuntimeException e) {
                Closing.stopAll(replicas, e);
                throw e;
            }
            return set;
        } catch (RuntimeException e) {
            Closing.stopAll(List.of(master), e);
            throw e;
        }
    }

    /**
     * The master, which takes writes.
     *
     * @return the master server
     */
    public RedisServer master() {
        return master;
    }

    /**
     * The replicas, in a fixed order.
     *
     * @return an unmodifiable list
     */
    public List<RedisServer> replicas() {
        return replicas;
    }

    /**
     * One replica.
     *
     * @param index from 0 to {@code replicas().size() - 1}
     * @return the replica
     */
    public RedisServer replica(int index) {
        return replicas.get(index);
    }

    /**
     * Waits until every running, unpaused replica reports {@code master_link_status:up} and the master lists it
     * as {@code state=online}, e.g. after the master was restarted. Replicas that are stopped or paused are
     * skipped; the master-side check is skipped while the master is stopped or paused.
     *
     * @param timeout how long to wait at most, for all replicas together
     * @throws RedisServerException if some replica is not in sync in time
     */
    public void awaitReplicasInSync(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (RedisServer replica : replicas) {
            if (replica.isRunning() && !replica.isPaused()) {
                awaitInSync(replica, deadline, timeout);
            }
        }
    }

    private void awaitInSync(RedisServer replica, long deadline, Duration timeout) {
        String online = "port=" + replica.port() + ",state=online";
        String replicaInfo = "";
        String masterInfo = "";
        while (true) {
            try {
                replicaInfo = LettuceCalls.call(LettuceCalls.uriOf(replica), commands -> commands.info("replication"));
                boolean masterCheckable = master.isRunning() && !master.isPaused();
                if (replicaInfo.contains("master_link_status:up") && masterCheckable) {
                    masterInfo = LettuceCalls.call(LettuceCalls.uriOf(master), commands -> commands.info("replication"));
                }
                if (replicaInfo.contains("master_link_status:up") && (!masterCheckable || masterInfo.contains(online))) {
                    return;
                }
            } catch (RedisException e) {
                replicaInfo = replicaInfo + "\n" + e;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new RedisServerException(replica + " did not sync with master " + master + " within "
                        + timeout + "; last INFO replication of the replica:\n" + replicaInfo.strip()
                        + "\nof the master:\n" + masterInfo.strip()
                        + "\nlast log lines of the replica:\n" + replica.logTail(15));
            }
            Sleeps.sleep(POLL_INTERVAL);
        }
    }

    /**
     * Stops the replicas, then the master (see {@link RedisServer#stop()}); idempotent.
     *
     * @throws RedisServerException if a server could not be stopped (the others are stopped anyway)
     */
    @Override
    public void close() {
        List<RedisServer> all = new ArrayList<>(replicas);
        all.add(master);
        Closing.stopAll(all, null);
    }

    @Override
    public String toString() {
        return "RedisReplicaSet[master=" + master + ", replicas=" + replicas + "]";
    }
}
