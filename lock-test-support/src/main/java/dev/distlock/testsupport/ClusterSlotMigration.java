package dev.distlock.testsupport;

import java.util.List;

import io.lettuce.core.MigrateArgs;

/**
 * A slot migration in progress in a {@link RedisClusterSet}, begun by {@link RedisClusterSet#beginMigration}: the
 * target is IMPORTING and the source MIGRATING the slot, so clients see {@code ASK} redirects for keys already
 * moved. {@link #finish()} completes it.
 */
public final class ClusterSlotMigration {

    private final RedisClusterSet cluster;
    private final int slot;
    private final RedisServer source;
    private final RedisServer target;

    ClusterSlotMigration(RedisClusterSet cluster, int slot, RedisServer source, RedisServer target) {
        this.cluster = cluster;
        this.slot = slot;
        this.source = source;
        this.target = target;
    }

    /** Moves every key of the slot from the source to the target ({@code MIGRATE ... KEYS}). */
    public ClusterSlotMigration moveKeys() {
        while (true) {
            List<String> keys = RedisClusterSet.call(source, commands -> commands.clusterGetKeysInSlot(slot, 100));
            if (keys.isEmpty()) {
                return this;
            }
            RedisClusterSet.call(source, commands -> commands.migrate(target.host(), target.port(), 0, 5_000,
                    MigrateArgs.Builder.keys(keys)));
        }
    }

    /** Moves the keys left, assigns the slot to the target on every master, and waits until all agree. */
    public void finish() {
        moveKeys();
        String targetId = cluster.nodeId(target);
        RedisClusterSet.call(target, commands -> commands.clusterSetSlotNode(slot, targetId));
        RedisClusterSet.call(source, commands -> commands.clusterSetSlotNode(slot, targetId));
        for (RedisServer master : cluster.masters()) {
            if (master != source && master != target) {
                RedisClusterSet.call(master, commands -> commands.clusterSetSlotNode(slot, targetId));
            }
        }
        long deadline = System.nanoTime() + RedisClusterSet.FORM_TIMEOUT.toNanos();
        while (true) {
            boolean agreed = true;
            for (RedisServer node : cluster.topology().runningNodes()) {
                agreed &= ClusterTopology.seenBy(node).stream()
                        .anyMatch(n -> n.id().equals(targetId) && n.serves(slot));
            }
            if (agreed) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new RedisServerException("nodes did not agree that " + target + " serves slot " + slot
                        + " within " + RedisClusterSet.FORM_TIMEOUT + "\n" + cluster.describe());
            }
            Sleeps.sleep(RedisClusterSet.POLL);
        }
    }
}
