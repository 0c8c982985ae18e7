package dev.distlock.testsupport;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.lettuce.core.RedisException;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.SlotHash;

/**
 * A Redis Cluster of real processes ({@code --cluster-enabled yes}), 3 masters with one replica each by default,
 * formed from Java (there is no {@code redis-cli}): {@code CLUSTER MEET}, {@code CLUSTER ADDSLOTSRANGE},
 * {@code CLUSTER REPLICATE}.
 *
 * <p>Promises:
 * <ul>
 *   <li>When {@link #start()} returns, every node reports {@code cluster_state:ok}, all 16384 slots are served,
 *       every node agrees which master serves each slot, and every replica is in sync with its master.</li>
 *   <li>Failover is fast: {@code cluster-node-timeout} {@value #NODE_TIMEOUT_MILLIS} ms and replicas may always
 *       take over ({@code cluster-replica-validity-factor 0}); after {@link #killMaster} the replica is promoted in
 *       a few seconds ({@link #awaitFailover}).</li>
 *   <li>Roles are not fixed: {@link #masters()} and {@link #masterOfSlot(int)} ask the cluster now.</li>
 *   <li>{@link #close()} stops every node; every wait is bounded and fails with the state it last saw.</li>
 * </ul>
 */
public final class RedisClusterSet implements AutoCloseable {

    /** {@code cluster-node-timeout}: how long a node may be unreachable before it is failed over. */
    public static final int NODE_TIMEOUT_MILLIS = 1000;

    static final Duration POLL = Duration.ofMillis(50);
    static final Duration FORM_TIMEOUT = Duration.ofSeconds(30);

    private final List<RedisServer> nodes;
    private final Map<RedisServer, String> ids;
    private final ClusterTopology topology;

    private RedisClusterSet(List<RedisServer> nodes, Map<RedisServer, String> ids) {
        this.nodes = List.copyOf(nodes);
        this.ids = Map.copyOf(ids);
        this.topology = new ClusterTopology(this.nodes, this.ids);
    }

    /**
     * Starts 3 masters and 3 replicas with default options.
     *
     * @return a formed cluster, {@code cluster_state:ok} on every node
     * @throws RedisServerException if a node cannot be started or the cluster does not form in time
     */
    public static RedisClusterSet start() {
        return start(3, 1, RedisServerOptions.defaults());
    }

    /**
     * Starts {@code masters} masters with {@code replicasPerMaster} replicas each.
     *
     * @param masters how many masters, at least 3 (a majority must survive a master failure)
     * @param replicasPerMaster how many replicas per master, 0 or more
     * @param options extra arguments and time bounds for every node
     * @return a formed cluster, {@code cluster_state:ok} on every node
     * @throws RedisServerException if a node cannot be started or the cluster does not form in time
     */
    public static RedisClusterSet start(int masters, int replicasPerMaster, RedisServerOptions options) {
        if (masters < 3 || replicasPerMaster < 0) {
            throw new IllegalArgumentException("need at least 3 masters and 0+ replicas per master, got " + masters
                    + " and " + replicasPerMaster);
        }
        RedisServerOptions nodeOptions = new RedisServerOptions(List.of(
                "--cluster-enabled", "yes",
                "--cluster-config-file", "nodes.conf",
                "--cluster-node-timeout", Integer.toString(NODE_TIMEOUT_MILLIS),
                "--cluster-replica-validity-factor", "0",
                "--cluster-allow-replica-migration", "no",
                "--repl-diskless-sync-delay", "0"), options.startupTimeout(), options.stopTimeout())
                .withArgs(options.extraArgs());
        int total = masters * (1 + replicasPerMaster);
        List<RedisServer> nodes = ParallelStart.start(total, index -> RedisServer.start(nodeOptions));
        try {
            Map<RedisServer, String> ids = new HashMap<>();
            for (RedisServer node : nodes) {
                ids.put(node, call(node, commands -> commands.clusterMyId()));
            }
            RedisClusterSet cluster = new RedisClusterSet(nodes, ids);
            ClusterFormation.form(cluster, masters, replicasPerMaster);
            return cluster;
        } catch (RuntimeException e) {
            Closing.stopAll(nodes, e);
            throw e;
        }
    }

    /**
     * The seed URIs of every node, for {@code RedisClusterClient.create(...)}.
     *
     * @return e.g. {@code [redis://127.0.0.1:12001, ...]}
     */
    public List<String> seedUris() {
        return nodes.stream().map(RedisServer::uri).collect(Collectors.toUnmodifiableList());
    }

    /** Every node, in start order (the first {@code masters} were the masters at start). */
    public List<RedisServer> nodes() {
        return nodes;
    }

    /** The cluster node id of a node. */
    public String nodeId(RedisServer node) {
        String id = ids.get(node);
        if (id == null) {
            throw new IllegalArgumentException(node + " is not part of this cluster");
        }
        return id;
    }

    /** The masters that serve slots now, as a running node reports them. */
    public List<RedisServer> masters() {
        return topology.current().stream().filter(n -> n.master() && !n.failed() && !n.slots().isEmpty())
                .map(n -> topology.byId(n.id())).collect(Collectors.toList());
    }

    /** The master serving a slot now, as a running node reports it. */
    public RedisServer masterOfSlot(int slot) {
        for (ClusterNodeView view : topology.current()) {
            if (view.master() && !view.failed() && view.serves(slot)) {
                return topology.byId(view.id());
            }
        }
        throw new RedisServerException("no master serves slot " + slot + " in " + describe());
    }

    /** The master serving a key now. */
    public RedisServer masterOfKey(String key) {
        return masterOfSlot(SlotHash.getSlot(key));
    }

    /**
     * The replicas of a master, as a running node reports them now.
     *
     * @return the replica nodes, possibly empty
     */
    public List<RedisServer> replicasOf(RedisServer master) {
        String masterId = nodeId(master);
        return topology.current().stream().filter(n -> masterId.equals(n.masterId())).map(n -> topology.byId(n.id()))
                .collect(Collectors.toList());
    }

    /**
     * Kills a master with SIGKILL (its directory and {@code nodes.conf} are kept, so {@link RedisServer#restart()}
     * brings it back as a node of this cluster, and it becomes a replica of its successor).
     *
     * @return the killed node
     */
    public RedisServer killMaster(RedisServer master) {
        master.kill9();
        return master;
    }

    /**
     * Waits until a replica of {@code previous} serves its slots and every running node says
     * {@code cluster_state:ok} and agrees on the slot owners.
     *
     * @return the new master of the slots {@code previous} served
     * @throws RedisServerException if that did not happen in time
     */
    public RedisServer awaitFailover(RedisServer previous, int slotOfPrevious, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                RedisServer owner = masterOfSlot(slotOfPrevious);
                if (owner != previous) {
                    awaitHealthy(remaining(deadline));
                    return owner;
                }
            } catch (RedisException | RedisServerException e) {
                // not yet
            }
            if (System.nanoTime() - deadline > 0) {
                throw new RedisServerException("no replica took over slot " + slotOfPrevious + " from " + previous
                        + " within " + timeout + "\n" + describe());
            }
            Sleeps.sleep(POLL);
        }
    }

    /**
     * Runs {@code CLUSTER FAILOVER} on a replica (a coordinated manual failover, no writes lost) and waits until it
     * serves its former master's slots and the cluster is healthy.
     *
     * @throws RedisServerException if it did not take over in time
     */
    public void manualFailover(RedisServer replica, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        call(replica, commands -> commands.clusterFailover(false));
        while (!call(replica, commands -> commands.info("replication")).contains("role:master")) {
            if (System.nanoTime() - deadline > 0) {
                throw new RedisServerException(replica + " did not become master within " + timeout + "\n"
                        + describe());
            }
            Sleeps.sleep(POLL);
        }
        awaitHealthy(remaining(deadline));
    }

    /**
     * Moves one slot with its keys to another master: IMPORTING on the target, MIGRATING on the source,
     * {@code MIGRATE} of every key, then {@code SETSLOT NODE} on every master.
     *
     * @param slot the slot to move
     * @param target the master that serves it afterwards
     * @throws RedisServerException if a step fails or the cluster does not agree in time
     */
    public void migrateSlot(int slot, RedisServer target) {
        beginMigration(slot, target).moveKeys().finish();
    }

    /**
     * Starts moving a slot and stops half way, so a test can see {@code ASK} redirects: after this the source still
     * serves the slot, keys moved by {@link ClusterSlotMigration#moveKeys()} are on the target.
     *
     * @param slot the slot to move
     * @param target the master that serves it after {@link ClusterSlotMigration#finish()}
     * @return the migration in progress
     */
    public ClusterSlotMigration beginMigration(int slot, RedisServer target) {
        RedisServer source = masterOfSlot(slot);
        if (source == target) {
            throw new IllegalArgumentException(target + " already serves slot " + slot);
        }
        call(target, commands -> commands.clusterSetSlotImporting(slot, nodeId(source)));
        call(source, commands -> commands.clusterSetSlotMigrating(slot, nodeId(target)));
        return new ClusterSlotMigration(this, slot, source, target);
    }

    /**
     * Waits until every running node says {@code cluster_state:ok}, all agree on which master serves every slot,
     * and every running replica's link to its master is up.
     *
     * @throws RedisServerException with the cluster as last seen, if not healthy in time
     */
    public void awaitHealthy(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String problem = "";
        while (true) {
            try {
                problem = topology.healthProblem();
                if (problem == null) {
                    return;
                }
            } catch (RedisException e) {
                problem = e.getMessage();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new RedisServerException("cluster not healthy within " + timeout + ": " + problem + "\n"
                        + describe());
            }
            Sleeps.sleep(POLL);
        }
    }

    /** Stops every node; idempotent. */
    @Override
    public void close() {
        Closing.stopAll(nodes, null);
    }

    @Override
    public String toString() {
        return "RedisClusterSet" + nodes;
    }

    /** {@code CLUSTER NODES} of the first running node, for error messages. */
    public String describe() {
        return topology.describe();
    }

    /** How the running nodes see the cluster now. */
    ClusterTopology topology() {
        return topology;
    }

    static <T> T call(RedisServer node, Function<RedisCommands<String, String>, T> body) {
        return LettuceCalls.call(LettuceCalls.uriOf(node), body);
    }

    static Duration remaining(long deadline) {
        return Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
    }
}
