package dev.distlock.core;

/**
 * What an acquisition does when fewer replicas than {@link LockClientOptions#replicaAcks()} acknowledged the grant
 * within {@link LockClientOptions#replicaAckTimeout()} (including when no replica is connected at all).
 */
public enum ReplicaAckPolicy {

    /** Release the grant (owner-checked) and fail the acquisition with {@link LockOperationException}. */
    FAIL,

    /** Keep the grant and log a warning: a failover before replication may still lose it. */
    WARN
}
