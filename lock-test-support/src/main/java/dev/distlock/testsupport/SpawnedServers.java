package dev.distlock.testsupport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The servers a {@link RedisExtension} spawned: one, several independent ones, or a replica set (master first), and
 * what the extension does to all of them at once.
 */
final class SpawnedServers {

    private static final Duration FLUSH_REPLICATION_TIMEOUT = Duration.ofSeconds(5);

    private final List<RedisServer> servers;
    private final @Nullable RedisReplicaSet replicaSet;

    private SpawnedServers(List<RedisServer> servers, @Nullable RedisReplicaSet replicaSet) {
        this.servers = List.copyOf(servers);
        this.replicaSet = replicaSet;
    }

    /** What an extension spawns: one server, independent servers, or a master and replicas. */
    enum Kind { SINGLE, INDEPENDENT, REPLICAS }

    /**
     * Starts the servers.
     *
     * @param count how many servers of kind {@code INDEPENDENT}, how many replicas of kind {@code REPLICAS}
     */
    static SpawnedServers start(Kind kind, int count, RedisServerOptions options) {
        return switch (kind) {
            case SINGLE -> new SpawnedServers(List.of(RedisServer.start(options)), null);
            case INDEPENDENT -> new SpawnedServers(RedisServers.start(count, options).servers(), null);
            case REPLICAS -> withReplicas(count, options);
        };
    }

    private static SpawnedServers withReplicas(int replicas, RedisServerOptions options) {
        RedisReplicaSet started = RedisReplicaSet.start(replicas, options);
        List<RedisServer> all = new ArrayList<>();
        all.add(started.master());
        all.addAll(started.replicas());
        return new SpawnedServers(all, started);
    }

    List<RedisServer> servers() {
        return servers;
    }

    @Nullable RedisReplicaSet replicaSet() {
        return replicaSet;
    }

    /** See {@link RedisExtension#flushAll()}. */
    void flushAll() {
        for (RedisServer server : servers) {
            if (!server.isRunning() || server.isPaused()) {
                throw new IllegalStateException(server + " is " + (server.isRunning() ? "paused" : "not running")
                        + "; the test that stopped it should restart()/resume() it");
            }
        }
        RedisReplicaSet set = replicaSet;
        for (RedisServer server : set != null ? List.of(set.master()) : servers) {
            LettuceCalls.call(LettuceCalls.uriOf(server), commands -> {
                commands.flushall();
                if (set != null) {
                    commands.waitForReplication(set.replicas().size(), FLUSH_REPLICATION_TIMEOUT.toMillis());
                }
                return null;
            });
        }
    }

    void stop() {
        if (replicaSet != null) {
            replicaSet.close(); // replicas first, then the master
        } else {
            Closing.stopAll(servers, null);
        }
    }

    @Override
    public String toString() {
        return servers.toString();
    }
}
