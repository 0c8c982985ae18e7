package dev.distlock.testsupport;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.RedisException;
import org.jspecify.annotations.Nullable;

/**
 * What the Sentinels and data servers of a {@link RedisSentinelSet} report: the master each Sentinel names, the
 * master's {@code INFO replication}, and the bounded waits until they show a failover or every replica attached.
 */
final class SentinelViews {

    private static final Duration POLL = Duration.ofMillis(50);

    private final List<RedisServer> dataServers;
    private final List<RedisServer> sentinels;

    SentinelViews(List<RedisServer> dataServers, List<RedisServer> sentinels) {
        this.dataServers = dataServers;
        this.sentinels = sentinels;
    }

    /** See {@link RedisSentinelSet#master()}. */
    RedisServer master() {
        RedisException last = null;
        for (RedisServer sentinel : answering()) {
            try {
                return byPort(masterPortSeenBy(sentinel));
            } catch (RedisException e) {
                last = e;
            }
        }
        throw new RedisServerException("no Sentinel of " + this + " answered", last);
    }

    /** See {@link RedisSentinelSet#awaitFailover(RedisServer, Duration)}. */
    RedisServer awaitFailover(RedisServer previous, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String seen = "";
        while (true) {
            try {
                List<String> views = new ArrayList<>();
                RedisServer agreed = agreedMaster(views);
                seen = String.join(", ", views);
                if (agreed != null && agreed != previous && agreed.isRunning()
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

    /** See {@link RedisSentinelSet#awaitReplicasAttached(Duration)}. */
    void awaitReplicasAttached(Duration timeout) {
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

    /** See {@link RedisSentinelSet#describeSentinels()}. */
    String describeSentinels() {
        List<String> lines = new ArrayList<>();
        for (RedisServer sentinel : sentinels) {
            @Nullable String view;
            try {
                view = sentinel.isRunning() ? LettuceCalls.callSentinel(LettuceCalls.uriOf(sentinel),
                        commands -> String.valueOf(commands.master(RedisSentinelSet.MASTER_NAME))) : "not running";
            } catch (RedisException e) {
                view = e.getMessage();
            }
            lines.add(sentinel.port() + ": " + view);
        }
        return String.join("\n", lines);
    }

    /** The Sentinels that are running and not paused. */
    List<RedisServer> answering() {
        return sentinels.stream().filter(s -> s.isRunning() && !s.isPaused()).toList();
    }

    @Override
    public String toString() {
        return "RedisSentinelSet[data=" + dataServers + ", sentinels=" + sentinels + "]";
    }

    /**
     * The master every answering Sentinel names, or null if they differ or none answers.
     *
     * @param views receives "sentinel port->master port" per Sentinel, for messages
     */
    private @Nullable RedisServer agreedMaster(List<String> views) {
        RedisServer agreed = null;
        boolean allAgree = true;
        for (RedisServer sentinel : answering()) {
            int port = masterPortSeenBy(sentinel);
            views.add(sentinel.port() + "->" + port);
            RedisServer master = byPort(port);
            if (agreed == null) {
                agreed = master;
            }
            allAgree &= (master == agreed);
        }
        return allAgree ? agreed : null;
    }

    private static int masterPortSeenBy(RedisServer sentinel) {
        var address = LettuceCalls.callSentinel(LettuceCalls.uriOf(sentinel),
                commands -> commands.getMasterAddrByName(RedisSentinelSet.MASTER_NAME));
        if (address == null) {
            throw new RedisServerException(sentinel + " does not know " + RedisSentinelSet.MASTER_NAME);
        }
        return ((InetSocketAddress) address).getPort();
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
}
