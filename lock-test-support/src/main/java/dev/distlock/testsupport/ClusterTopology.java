package dev.distlock.testsupport;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.lettuce.core.RedisException;
import org.jspecify.annotations.Nullable;

/**
 * How the nodes of a {@link RedisClusterSet} see the cluster: {@code CLUSTER NODES} parsed, node ids mapped back to
 * servers, and whether every running node agrees and is healthy. Asks the nodes on every call; keeps no state.
 */
final class ClusterTopology {

    private final List<RedisServer> nodes;
    private final Map<RedisServer, String> ids;

    ClusterTopology(List<RedisServer> nodes, Map<RedisServer, String> ids) {
        this.nodes = nodes;
        this.ids = ids;
    }

    String describe() {
        for (RedisServer node : runningNodes()) {
            try {
                return "CLUSTER NODES of " + node.port() + ":\n"
                        + RedisClusterSet.call(node, commands -> commands.clusterNodes());
            } catch (RedisException e) {
                // try the next
            }
        }
        return "(no node answers)";
    }

    /** What keeps the cluster from being healthy now, or null if nothing does. */
    @Nullable String healthProblem() {
        String firstView = null;
        for (RedisServer node : runningNodes()) {
            String info = RedisClusterSet.call(node, commands -> commands.clusterInfo());
            if (!info.contains("cluster_state:ok")) {
                return node.port() + " says " + info.lines().filter(l -> l.startsWith("cluster_state")).findFirst()
                        .orElse("no cluster_state");
            }
            List<ClusterNodeView> view = seenBy(node);
            String roles = view.stream().map(ClusterNodeView::signature).sorted().collect(Collectors.joining(";"));
            if (firstView == null) {
                firstView = roles;
            } else if (!firstView.equals(roles)) {
                return "nodes disagree on roles or slot owners";
            }
            for (ClusterNodeView n : view) {
                if (n.myself() && !n.master()) {
                    String replication = RedisClusterSet.call(node, commands -> commands.info("replication"));
                    if (!replication.contains("master_link_status:up")) {
                        return "replica " + node.port() + " is not in sync with its master";
                    }
                }
            }
        }
        return null;
    }

    /** Waits until every node knows every other (no handshakes left), until {@code deadline} ({@code nanoTime}). */
    void awaitAllKnown(long deadline) {
        for (RedisServer node : nodes) {
            while (true) {
                List<ClusterNodeView> view = seenBy(node);
                if (view.size() == nodes.size() && view.stream().noneMatch(ClusterNodeView::handshaking)) {
                    break;
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new RedisServerException(node + " did not learn all " + nodes.size() + " nodes within "
                            + RedisClusterSet.FORM_TIMEOUT + "; it knows:\n" + RedisClusterSet.call(node, commands -> commands.clusterNodes()));
                }
                Sleeps.sleep(RedisClusterSet.POLL);
            }
        }
    }

    /** The nodes that are running and not paused. */
    List<RedisServer> runningNodes() {
        return nodes.stream().filter(n -> n.isRunning() && !n.isPaused()).collect(Collectors.toList());
    }

    /** {@code CLUSTER NODES} as the first running node that answers sees it. */
    List<ClusterNodeView> current() {
        RedisException last = null;
        for (RedisServer node : runningNodes()) {
            try {
                return seenBy(node);
            } catch (RedisException e) {
                last = e;
            }
        }
        throw new RedisServerException("no node of RedisClusterSet" + nodes + " answers", last);
    }

    /** {@code CLUSTER NODES} as one node sees it. */
    static List<ClusterNodeView> seenBy(RedisServer node) {
        String text = RedisClusterSet.call(node, commands -> commands.clusterNodes());
        return text.lines().filter(l -> !l.isBlank()).map(ClusterNodeView::parse).collect(Collectors.toList());
    }

    RedisServer byId(String id) {
        for (Map.Entry<RedisServer, String> entry : ids.entrySet()) {
            if (entry.getValue().equals(id)) {
                return entry.getKey();
            }
        }
        throw new RedisServerException("node id " + id + " is not part of RedisClusterSet" + nodes);
    }
}
