package dev.distlock.testsupport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import io.lettuce.core.AclSetuserArgs;
import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisException;

/**
 * A master, N replicas and three Sentinels watching them ({@code redis-server --sentinel}), all real processes on
 * loopback ports. Clients connect through {@link #sentinelUri()}.
 *
 * <p>Promises:
 * <ul>
 *   <li>When {@link #start(int)} returns, the replicas are in sync and every Sentinel monitors
 *       {@value #MASTER_NAME} with quorum 2, knows all replicas and the two other Sentinels, so a failover can
 *       start at once.</li>
 *   <li>Failover is fast: {@code down-after-milliseconds} {@value #DOWN_AFTER_MILLIS}, {@code failover-timeout}
 *       {@value #FAILOVER_TIMEOUT_MILLIS}; after {@link #killMaster()} a replica is promoted within a few
 *       seconds ({@link #awaitFailover}).</li>
 *   <li>Roles are not fixed: {@link #master()} asks the Sentinels who the master is now.</li>
 *   <li>{@link #close()} stops the Sentinels, then every data server; every wait is bounded and fails with the
 *       state it last saw.</li>
 * </ul>
 *
 * <p>{@link SentinelFormation} starts the set; {@link SentinelViews} reads what the Sentinels report and waits on it.
 */
public final class RedisSentinelSet implements AutoCloseable {

    /** The name the Sentinels monitor the master under. */
    public static final String MASTER_NAME = "mymaster";

    /** How long a Sentinel waits before it considers an unresponsive master down. */
    public static final int DOWN_AFTER_MILLIS = 1000;

    /** Sentinel failover timeout (also the minimum time between two failovers of the master). */
    public static final int FAILOVER_TIMEOUT_MILLIS = 4000;

    /** The ACL user replicas authenticate as, so that a test can lock them out ({@link #partitionReplicas()}). */
    static final String REPLICATION_USER = "replicator";

    private final List<RedisServer> dataServers;
    private final List<RedisServer> sentinels;
    private final SentinelViews views;
    private final Path aclDirectory;

    RedisSentinelSet(List<RedisServer> dataServers, List<RedisServer> sentinels, Path aclDirectory) {
        this.dataServers = List.copyOf(dataServers);
        this.sentinels = List.copyOf(sentinels);
        this.views = new SentinelViews(this.dataServers, this.sentinels);
        this.aclDirectory = aclDirectory;
    }

    /**
     * Starts a master, {@code replicas} replicas and three Sentinels with default options.
     *
     * @param replicas how many replicas, at least 1
     * @return the running set, ready to fail over
     * @throws RedisServerException if a process cannot be started or the set does not settle in time
     */
    public static RedisSentinelSet start(int replicas) {
        return start(replicas, RedisServerOptions.defaults());
    }

    /**
     * Starts a master, {@code replicas} replicas (with {@code options}) and three Sentinels.
     *
     * @param replicas how many replicas, at least 1
     * @param options extra arguments and time bounds for the data servers
     * @return the running set, ready to fail over
     * @throws RedisServerException if a process cannot be started or the set does not settle in time
     */
    public static RedisSentinelSet start(int replicas, RedisServerOptions options) {
        return SentinelFormation.start(replicas, options);
    }

    /**
     * The Lettuce URI that connects through the Sentinels to the current master.
     *
     * @return e.g. {@code redis-sentinel://127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3#mymaster}
     */
    public String sentinelUri() {
        return "redis-sentinel://" + sentinels.stream().map(s -> s.host() + ":" + s.port())
                .collect(Collectors.joining(",")) + "#" + MASTER_NAME;
    }

    /** The three Sentinels. */
    public List<RedisServer> sentinels() {
        return sentinels;
    }

    /** Every data server (master and replicas, whatever their current role), in start order. */
    public List<RedisServer> dataServers() {
        return dataServers;
    }

    /**
     * The master as the first answering Sentinel reports it now.
     *
     * @throws RedisServerException if no Sentinel answers
     */
    public RedisServer master() {
        return views.master();
    }

    /** The running data servers other than the current master. */
    public List<RedisServer> replicas() {
        RedisServer master = master();
        return dataServers.stream().filter(s -> s != master && s.isRunning()).collect(Collectors.toList());
    }

    /**
     * Kills the current master with SIGKILL (its directory is kept, {@link RedisServer#restart()} brings it back,
     * empty, and the Sentinels then make it a replica).
     *
     * @return the killed server
     */
    public RedisServer killMaster() {
        RedisServer master = master();
        master.kill9();
        return master;
    }

    /**
     * Asks a Sentinel for a manual failover ({@code SENTINEL FAILOVER mymaster}), retrying while it answers that a
     * failover is in progress or no replica is good enough yet.
     *
     * @param timeout how long to keep asking
     * @throws RedisServerException if no Sentinel accepted the request within the timeout
     */
    public void failover(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (true) {
            for (RedisServer sentinel : views.answering()) {
                try {
                    String reply = LettuceCalls.callSentinel(LettuceCalls.uriOf(sentinel),
                            commands -> commands.failover(MASTER_NAME));
                    if ("OK".equals(reply)) {
                        return;
                    }
                    last = reply;
                } catch (RedisException e) {
                    last = e.getMessage();
                }
            }
            if (System.nanoTime() - deadline > 0) {
                throw new RedisServerException("no Sentinel accepted SENTINEL FAILOVER within " + timeout
                        + "; last answer: " + last);
            }
            Sleeps.sleep(Duration.ofMillis(200));
        }
    }

    /**
     * Disconnects every replica from the current master ({@code CLIENT KILL TYPE replica}); they reconnect by
     * themselves after a moment.
     *
     * @return how many replica connections were killed
     */
    public long cutReplicas() {
        RedisServer master = master();
        return LettuceCalls.call(LettuceCalls.uriOf(master), commands -> commands.clientKill(KillArgs.Builder.typeSlave()));
    }

    /**
     * Cuts every replica off the current master until {@link #healReplicas()}: the replicas' ACL user is disabled on
     * the master and their links are killed, so their immediate reconnect fails authentication and they stay out
     * (retrying once a second). Writes the master acknowledges meanwhile reach no replica. The Sentinels still see
     * the replicas (they talk to them directly), so a failover can promote one.
     *
     * @return how many replica links were killed
     */
    public long partitionReplicas() {
        RedisServer master = master();
        return LettuceCalls.call(LettuceCalls.uriOf(master), commands -> {
            commands.aclSetuser(REPLICATION_USER, AclSetuserArgs.Builder.off());
            return commands.clientKill(KillArgs.Builder.typeSlave());
        });
    }

    /** Lets replicas authenticate again on every running data server (undoes {@link #partitionReplicas()}). */
    public void healReplicas() {
        for (RedisServer server : dataServers) {
            if (server.isRunning() && !server.isPaused()) {
                LettuceCalls.call(LettuceCalls.uriOf(server),
                        commands -> commands.aclSetuser(REPLICATION_USER, AclSetuserArgs.Builder.on()));
            }
        }
    }

    /**
     * Waits until every running Sentinel reports a master other than {@code previous} and that server says it is a
     * master.
     *
     * @param previous the master before the failover
     * @param timeout how long to wait at most
     * @return the new master
     * @throws RedisServerException if that did not happen in time
     */
    public RedisServer awaitFailover(RedisServer previous, Duration timeout) {
        return views.awaitFailover(previous, timeout);
    }

    /**
     * Waits until the current master reports every other running data server as an online replica, e.g. after a
     * killed master was restarted and the Sentinels made it a replica.
     *
     * @param timeout how long to wait at most
     * @throws RedisServerException if the replicas did not all attach in time
     */
    public void awaitReplicasAttached(Duration timeout) {
        views.awaitReplicasAttached(timeout);
    }

    /** Stops the Sentinels, then the data servers; idempotent. */
    @Override
    public void close() {
        List<RedisServer> all = new ArrayList<>(sentinels);
        all.addAll(dataServers);
        try {
            Closing.stopAll(all, null);
        } finally {
            TempDirs.delete(aclDirectory);
        }
    }

    @Override
    public String toString() {
        return views.toString();
    }

    /** For diagnostics: what every Sentinel thinks, or the error it gave. */
    public String describeSentinels() {
        return views.describeSentinels();
    }
}
