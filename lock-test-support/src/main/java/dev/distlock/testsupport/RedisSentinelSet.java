package dev.distlock.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisException;
import org.jspecify.annotations.Nullable;

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
 * <p>Over 300 lines on purpose: its public controls (failover, partitions, roles) each need a documented, bounded
 * wait on the same Sentinel and replica state; formation alone is short.
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

    private static final String REPLICATION_PASSWORD = "replicator-secret";
    private static final int SENTINELS = 3;
    private static final Duration POLL = Duration.ofMillis(50);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

    private final List<RedisServer> dataServers;
    private final List<RedisServer> sentinels;

    private final Path aclDirectory;

    private RedisSentinelSet(List<RedisServer> dataServers, List<RedisServer> sentinels, Path aclDirectory) {
        this.dataServers = List.copyOf(dataServers);
        this.sentinels = List.copyOf(sentinels);
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
        // replicas authenticate as their own ACL user: disabling it keeps them out after a disconnect. The users live
        // in an ACL file, not on the command line, because Sentinel's CONFIG REWRITE would duplicate them.
        Path aclDirectory;
        try {
            aclDirectory = TempDirs.create("distlock-sentinel-acl-");
            Files.writeString(aclDirectory.resolve("users.acl"), "user default on nopass ~* &* +@all\n"
                    + "user " + REPLICATION_USER + " on >" + REPLICATION_PASSWORD + " ~* &* +@all\n",
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new RedisServerException("Could not write the ACL file of a Sentinel set", e);
        }
        RedisServerOptions dataOptions = options.withArgs(
                "--aclfile", aclDirectory.resolve("users.acl").toString(),
                "--masteruser", REPLICATION_USER, "--masterauth", REPLICATION_PASSWORD);
        RedisReplicaSet data;
        try {
            data = RedisReplicaSet.start(replicas, dataOptions);
        } catch (RuntimeException e) {
            TempDirs.delete(aclDirectory);
            throw e;
        }
        List<RedisServer> all = new ArrayList<>();
        all.add(data.master());
        all.addAll(data.replicas());
        List<RedisServer> sentinels = List.of();
        try {
            RedisServerOptions sentinelOptions = RedisServerOptions.defaults().withArgs(
                    "--sentinel", "monitor", MASTER_NAME, RedisServer.HOST, Integer.toString(data.master().port()), "2",
                    "--sentinel", "down-after-milliseconds", MASTER_NAME, Integer.toString(DOWN_AFTER_MILLIS),
                    "--sentinel", "failover-timeout", MASTER_NAME, Integer.toString(FAILOVER_TIMEOUT_MILLIS),
                    "--sentinel", "parallel-syncs", MASTER_NAME, Integer.toString(replicas));
            sentinels = ParallelStart.start(SENTINELS, index -> RedisServer.start(sentinelOptions));
            RedisSentinelSet set = new RedisSentinelSet(all, sentinels, aclDirectory);
            set.awaitSentinelsReady(READY_TIMEOUT);
            return set;
        } catch (RuntimeException e) {
            List<RedisServer> everything = new ArrayList<>(sentinels);
            everything.addAll(all);
            Closing.stopAll(everything, e);
            TempDirs.delete(aclDirectory);
            throw e;
        }
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
        RedisException last = null;
        for (RedisServer sentinel : sentinels) {
            if (!sentinel.isRunning() || sentinel.isPaused()) {
                continue;
            }
            try {
                return byPort(masterPortSeenBy(sentinel));
            } catch (RedisException e) {
                last = e;
            }
        }
        throw new RedisServerException("no Sentinel of " + this + " answered", last);
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
            for (RedisServer sentinel : sentinels) {
                if (!sentinel.isRunning() || sentinel.isPaused()) {
                    continue;
                }
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
            commands.aclSetuser(REPLICATION_USER, io.lettuce.core.AclSetuserArgs.Builder.off());
            return commands.clientKill(KillArgs.Builder.typeSlave());
        });
    }

    /** Lets replicas authenticate again on every running data server (undoes {@link #partitionReplicas()}). */
    public void healReplicas() {
        for (RedisServer server : dataServers) {
            if (server.isRunning() && !server.isPaused()) {
                LettuceCalls.call(LettuceCalls.uriOf(server),
                        commands -> commands.aclSetuser(REPLICATION_USER, io.lettuce.core.AclSetuserArgs.Builder.on()));
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
        long deadline = System.nanoTime() + timeout.toNanos();
        String seen = "";
        while (true) {
            try {
                RedisServer agreed = null;
                boolean allAgree = true;
                List<String> views = new ArrayList<>();
                for (RedisServer sentinel : sentinels) {
                    if (!sentinel.isRunning() || sentinel.isPaused()) {
                        continue;
                    }
                    int port = masterPortSeenBy(sentinel);
                    views.add(sentinel.port() + "->" + port);
                    RedisServer master = byPort(port);
                    if (agreed == null) {
                        agreed = master;
                    }
                    allAgree &= (master == agreed);
                }
                seen = String.join(", ", views);
                if (agreed != null && allAgree && agreed != previous && agreed.isRunning()
                        && role(agreed).contains("role:master")) {
                    return agreed;
                }
            } catch (RedisException | RedisServerException e) {
                seen = seen + " (" + e.getMessage() + ")";
            }
            if (System.nanoTime() - deadline > 0) {
                throw new RedisServerException("the Sentinels did not fail over from " + previous + " within "
                        + timeout + "; sentinel -> master port: " + seen + "\nlast log lines of a Sentinel:\n"
                        + sentinels.get(0).logTail(20));
            }
            Sleeps.sleep(POLL);
        }
    }

    /**
     * Waits until the current master reports every other running data server as an online replica, e.g. after a
     * killed master was restarted and the Sentinels made it a replica.
     *
     * @param timeout how long to wait at most
     * @throws RedisServerException if the replicas did not all attach in time
     */
    public void awaitReplicasAttached(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String info = "";
        while (true) {
            try {
                RedisServer master = master();
                info = role(master);
                boolean all = info.contains("role:master");
                for (RedisServer server : dataServers) {
                    if (server != master && server.isRunning() && !server.isPaused()) {
                        all &= info.contains("port=" + server.port() + ",state=online");
                    }
                }
                if (all) {
                    return;
                }
            } catch (RedisException | RedisServerException e) {
                info = info + "\n" + e.getMessage();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new RedisServerException("not every replica attached to the master within " + timeout
                        + "; INFO replication of the master:\n" + info);
            }
            Sleeps.sleep(POLL);
        }
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
        return "RedisSentinelSet[data=" + dataServers + ", sentinels=" + sentinels + "]";
    }

    private void awaitSentinelsReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        int replicas = dataServers.size() - 1;
        for (RedisServer sentinel : sentinels) {
            Map<String, String> state = Map.of();
            while (true) {
                try {
                    state = LettuceCalls.callSentinel(LettuceCalls.uriOf(sentinel),
                            commands -> commands.master(MASTER_NAME));
                    if ("master".equals(state.get("flags"))
                            && Integer.toString(replicas).equals(state.get("num-slaves"))
                            && Integer.toString(SENTINELS - 1).equals(state.get("num-other-sentinels"))) {
                        break;
                    }
                } catch (RedisException e) {
                    state = Map.of("error", String.valueOf(e.getMessage()));
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new RedisServerException(sentinel + " did not see the master, " + replicas
                            + " replicas and " + (SENTINELS - 1) + " other Sentinels within " + timeout
                            + "; SENTINEL MASTER said: " + state + "\nlast log lines:\n" + sentinel.logTail(20));
                }
                Sleeps.sleep(POLL);
            }
        }
    }

    private static int masterPortSeenBy(RedisServer sentinel) {
        var address = LettuceCalls.callSentinel(LettuceCalls.uriOf(sentinel),
                commands -> commands.getMasterAddrByName(MASTER_NAME));
        if (address == null) {
            throw new RedisServerException(sentinel + " does not know " + MASTER_NAME);
        }
        return ((java.net.InetSocketAddress) address).getPort();
    }

    private RedisServer byPort(int port) {
        for (RedisServer server : dataServers) {
            if (server.port() == port) {
                return server;
            }
        }
        throw new RedisServerException("the Sentinels report a master on port " + port
                + " that is not part of " + this);
    }

    private static String role(RedisServer server) {
        return LettuceCalls.call(LettuceCalls.uriOf(server), commands -> commands.info("replication"));
    }

    /** For diagnostics: what every Sentinel thinks, or the error it gave. */
    public String describeSentinels() {
        List<String> lines = new ArrayList<>();
        for (RedisServer sentinel : sentinels) {
            @Nullable String view;
            try {
                view = sentinel.isRunning() ? LettuceCalls.callSentinel(LettuceCalls.uriOf(sentinel),
                        commands -> String.valueOf(commands.master(MASTER_NAME))) : "not running";
            } catch (RedisException e) {
                view = e.getMessage();
            }
            lines.add(sentinel.port() + ": " + view);
        }
        return String.join("\n", lines);
    }
}
