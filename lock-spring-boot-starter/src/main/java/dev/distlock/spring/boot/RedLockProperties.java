package dev.distlock.spring.boot;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.distlock.core.RedLockClient;

/** RedLock over independent Redis masters ({@code distributed-lock.redlock.*}). */
public class RedLockProperties {

    /**
     * Independent Redis masters (not replicas of each other) as redis:// or rediss:// URIs, at least 3; setting
     * them creates the RedLockClient bean used by @DistributedLock(type = REDLOCK).
     */
    private List<String> nodes = new ArrayList<>();

    /** How long to wait for one master's reply; short against the lease. */
    private Duration nodeTimeout = RedLockClient.DEFAULT_NODE_TIMEOUT;

    public List<String> getNodes() {
        return this.nodes;
    }

    public void setNodes(List<String> nodes) {
        this.nodes = nodes;
    }

    public Duration getNodeTimeout() {
        return this.nodeTimeout;
    }

    public void setNodeTimeout(Duration nodeTimeout) {
        this.nodeTimeout = nodeTimeout;
    }

    /** Whether RedLock masters are configured. */
    public boolean isConfigured() {
        return !this.nodes.isEmpty();
    }
}
