package dev.distlock.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.lettuce.core.RedisException;

/**
 * Forms a {@link RedisSentinelSet}: writes the ACL file the replicas authenticate with, starts the data servers and
 * three Sentinels, then waits until every Sentinel knows the master, every replica and the other Sentinels.
 */
final class SentinelFormation {

    private static final String REPLICATION_PASSWORD = "replicator-secret";
    private static final int SENTINELS = 3;
    private static final Duration POLL = Duration.ofMillis(50);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

    private SentinelFormation() {
    }

    /** See {@link RedisSentinelSet#start(int, RedisServerOptions)}; on failure nothing is left running. */
    static RedisSentinelSet start(int replicas, RedisServerOptions options) {
        Path aclDirectory = writeAclFile();
        RedisServerOptions dataOptions = options.withArgs(
                "--aclfile", aclDirectory.resolve("users.acl").toString(),
                "--masteruser", RedisSentinelSet.REPLICATION_USER, "--masterauth", REPLICATION_PASSWORD);
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
            RedisServerOptions sentinelOptions = sentinelOptions(data.master().port(), replicas);
            sentinels = ParallelStart.start(SENTINELS, index -> RedisServer.start(sentinelOptions));
            awaitSentinelsReady(sentinels, replicas);
            return new RedisSentinelSet(all, sentinels, aclDirectory);
        } catch (RuntimeException e) {
            List<RedisServer> everything = new ArrayList<>(sentinels);
            everything.addAll(all);
            Closing.stopAll(everything, e);
            TempDirs.delete(aclDirectory);
            throw e;
        }
    }

    /**
     * Replicas authenticate as their own ACL user: disabling it keeps them out after a disconnect. The users live in
     * an ACL file, not on the command line, because Sentinel's CONFIG REWRITE would duplicate them.
     */
    private static Path writeAclFile() {
        try {
            Path aclDirectory = TempDirs.create("distlock-sentinel-acl-");
            Files.writeString(aclDirectory.resolve("users.acl"), "user default on nopass ~* &* +@all\n"
                    + "user " + RedisSentinelSet.REPLICATION_USER + " on >" + REPLICATION_PASSWORD + " ~* &* +@all\n",
                    StandardCharsets.UTF_8);
            return aclDirectory;
        } catch (IOException e) {
            throw new RedisServerException("Could not write the ACL file of a Sentinel set", e);
        }
    }

    private static RedisServerOptions sentinelOptions(int masterPort, int replicas) {
        String name = RedisSentinelSet.MASTER_NAME;
        return RedisServerOptions.defaults().withArgs(
                "--sentinel", "monitor", name, RedisServer.HOST, Integer.toString(masterPort), "2",
                "--sentinel", "down-after-milliseconds", name,
                Integer.toString(RedisSentinelSet.DOWN_AFTER_MILLIS),
                "--sentinel", "failover-timeout", name, Integer.toString(RedisSentinelSet.FAILOVER_TIMEOUT_MILLIS),
                "--sentinel", "parallel-syncs", name, Integer.toString(replicas));
    }

    private static void awaitSentinelsReady(List<RedisServer> sentinels, int replicas) {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        for (RedisServer sentinel : sentinels) {
            Map<String, String> state = Map.of();
            while (true) {
                try {
                    state = LettuceCalls.callSentinel(LettuceCalls.uriOf(sentinel),
                            commands -> commands.master(RedisSentinelSet.MASTER_NAME));
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
                            + " replicas and " + (SENTINELS - 1) + " other Sentinels within " + READY_TIMEOUT
                            + "; SENTINEL MASTER said: " + state + "\nlast log lines:\n" + sentinel.logTail(20));
                }
                Sleeps.sleep(POLL);
            }
        }
    }
}
