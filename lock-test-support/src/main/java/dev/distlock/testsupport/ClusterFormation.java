package dev.distlock.testsupport;

import java.util.List;

import io.lettuce.core.Range;
import io.lettuce.core.cluster.SlotHash;

/**
 * Forms a {@link RedisClusterSet} from started nodes, without {@code redis-cli}: {@code CLUSTER MEET} from the first
 * node, {@code CLUSTER ADDSLOTSRANGE} (slots split evenly over the first {@code masters} nodes), then
 * {@code CLUSTER REPLICATE} for the rest, and waits (bounded by {@link RedisClusterSet#FORM_TIMEOUT}) until healthy.
 */
final class ClusterFormation {

    private ClusterFormation() {
    }

    @SuppressWarnings("unchecked") // a one-element varargs array of Range<Integer>
    static void form(RedisClusterSet cluster, int masters, int replicasPerMaster) {
        long deadline = System.nanoTime() + RedisClusterSet.FORM_TIMEOUT.toNanos();
        List<RedisServer> nodes = cluster.nodes();
        RedisServer first = nodes.get(0);
        for (RedisServer node : nodes.subList(1, nodes.size())) {
            RedisClusterSet.call(first, commands -> commands.clusterMeet(node.host(), node.port()));
        }
        int perMaster = SlotHash.SLOT_COUNT / masters;
        for (int i = 0; i < masters; i++) {
            int from = i * perMaster;
            int to = (i == masters - 1) ? SlotHash.SLOT_COUNT - 1 : from + perMaster - 1;
            RedisClusterSet.call(nodes.get(i), commands -> commands.clusterAddSlotsRange(Range.create(from, to)));
        }
        cluster.topology().awaitAllKnown(deadline);
        for (int i = 0; i < masters; i++) {
            String masterId = cluster.nodeId(nodes.get(i));
            for (int r = 0; r < replicasPerMaster; r++) {
                RedisServer replica = nodes.get(masters + i * replicasPerMaster + r);
                RedisClusterSet.call(replica, commands -> commands.clusterReplicate(masterId));
            }
        }
        cluster.awaitHealthy(RedisClusterSet.remaining(deadline));
    }
}
