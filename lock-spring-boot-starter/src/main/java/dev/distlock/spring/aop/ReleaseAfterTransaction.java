package dev.distlock.spring.aop;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LostLeasePolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.Ordered;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Keeps the lease of an advised call that ran inside a surrounding transaction (for example a {@code REQUIRED}
 * {@code @Transactional} caller) until that transaction completes, so the next holder sees the committed work.
 *
 * <ul>
 * <li>before commit: a lease already lost fails the commit with {@link LockLostException} (the transaction rolls
 * back), unless the policy is {@link LostLeasePolicy#IGNORE};</li>
 * <li>after commit: a lease lost during the commit is reported to the committing caller with
 * {@link LockLostException}; the work is committed by then;</li>
 * <li>after completion (commit or rollback): the lease is released; a failure there can only be logged.</li>
 * </ul>
 * Only loaded when spring-tx is on the classpath.
 */
final class ReleaseAfterTransaction implements TransactionSynchronization {

    private static final Logger logger = LoggerFactory.getLogger(ReleaseAfterTransaction.class);

    private final LockLease lease;

    private final LostLeasePolicy policy;

    private ReleaseAfterTransaction(LockLease lease, LostLeasePolicy policy) {
        this.lease = lease;
        this.policy = policy;
    }

    /** Whether the current thread runs inside a transaction scope whose completion can be awaited. */
    static boolean isActive() {
        return TransactionSynchronizationManager.isSynchronizationActive();
    }

    /** Defers the release of {@code lease} to the end of the current transaction scope. */
    static void register(LockLease lease, LostLeasePolicy policy) {
        TransactionSynchronizationManager.registerSynchronization(new ReleaseAfterTransaction(lease, policy));
    }

    @Override
    public int getOrder() {
        // Release after every other synchronization has seen the completed transaction.
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void beforeCommit(boolean readOnly) {
        if (!this.lease.isHeld() && this.policy != LostLeasePolicy.IGNORE) {
            throw new LockLostException(this.lease.name(), this.lease.fencingToken(), "it was lost before the"
                    + " surrounding transaction committed, so the transaction is rolled back");
        }
    }

    @Override
    public void afterCommit() {
        if (!this.lease.isHeld() && this.policy != LostLeasePolicy.IGNORE) {
            throw new LockLostException(this.lease.name(), this.lease.fencingToken(), "it was lost while the"
                    + " surrounding transaction committed; the work IS committed and may have overlapped with"
                    + " another holder's");
        }
    }

    @Override
    public void afterCompletion(int status) {
        try {
            this.lease.close();
        }
        catch (LockLostException ex) {
            logger.warn("Lease of lock '{}' (fencing token {}) was lost before the surrounding transaction ended"
                    + " ({}): {}", this.lease.name(), this.lease.fencingToken(), describe(status), ex.getMessage());
        }
        catch (RuntimeException ex) {
            logger.warn("Releasing lock '{}' after the surrounding transaction failed", this.lease.name(), ex);
        }
    }

    private static String describe(int status) {
        return switch (status) {
            case STATUS_COMMITTED -> "committed";
            case STATUS_ROLLED_BACK -> "rolled back";
            default -> "outcome unknown";
        };
    }
}
