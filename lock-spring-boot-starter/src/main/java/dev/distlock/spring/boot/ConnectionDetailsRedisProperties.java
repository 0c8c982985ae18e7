package dev.distlock.spring.boot;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The {@code distributed-lock.redis.*} properties with the address and credentials of a
 * {@link LockRedisConnectionDetails} bean in place of theirs: what the dedicated connection is built from when such a
 * bean exists. Timeouts, client name, TLS and cluster redirects stay as the properties set them.
 */
final class ConnectionDetailsRedisProperties {

    private ConnectionDetailsRedisProperties() {
    }

    /**
     * @throws IllegalStateException naming the bean's class if it gives not exactly one of standalone, sentinel and
     * cluster
     */
    static LockRedisProperties of(LockRedisProperties properties, LockRedisConnectionDetails details) {
        LockRedisConnectionDetails.Standalone standalone = details.getStandalone();
        LockRedisConnectionDetails.Sentinel sentinel = details.getSentinel();
        LockRedisConnectionDetails.Cluster cluster = details.getCluster();
        int given = count(standalone) + count(sentinel) + count(cluster);
        if (given != 1) {
            throw new IllegalStateException("The LockRedisConnectionDetails bean (" + details.getClass().getName()
                    + ") must return exactly one of getStandalone(), getSentinel() and getCluster(), but returned "
                    + given + " non-null; return the one that fits the lock's Redis.");
        }
        LockRedisProperties merged = new LockRedisProperties();
        merged.setTimeout(properties.getTimeout());
        merged.setConnectTimeout(properties.getConnectTimeout());
        merged.setClientName(properties.getClientName());
        merged.getSsl().setEnabled(properties.getSsl().isEnabled());
        merged.getSsl().setBundle(properties.getSsl().getBundle());
        merged.getCluster().setMaxRedirects(properties.getCluster().getMaxRedirects());
        merged.setUsername(details.getUsername());
        merged.setPassword(details.getPassword());
        if (standalone != null) {
            merged.setHost(standalone.host());
            merged.setPort(standalone.port());
            merged.setDatabase(standalone.database());
        }
        else if (sentinel != null) {
            merged.getSentinel().setMaster(sentinel.master());
            merged.getSentinel().setNodes(hostsAndPorts(sentinel.nodes()));
            merged.getSentinel().setUsername(sentinel.username());
            merged.getSentinel().setPassword(sentinel.password());
            merged.setDatabase(sentinel.database());
        }
        else if (cluster != null) {
            merged.getCluster().setNodes(hostsAndPorts(cluster.nodes()));
        }
        return merged;
    }

    private static int count(@Nullable Object part) {
        return (part != null) ? 1 : 0;
    }

    private static List<String> hostsAndPorts(List<LockRedisConnectionDetails.Node> nodes) {
        List<String> out = new ArrayList<>();
        for (LockRedisConnectionDetails.Node node : nodes) {
            out.add(node.host() + ":" + node.port());
        }
        return out;
    }
}
