package dev.distlock.core.internal.protocol;

import dev.distlock.core.LockOperationException;

/** A grant that too few replicas acknowledged, under {@code ReplicaAckPolicy.FAIL}. */
final class ReplicaAckException extends LockOperationException {

    private static final long serialVersionUID = 1L;

    ReplicaAckException(String lockName, String message) {
        super(lockName, message, null);
    }
}
