package dev.distlock.spring.integration;

import java.util.concurrent.locks.Lock;

import dev.distlock.core.RedisLock;
import dev.distlock.core.RedisLockClient;

import org.springframework.integration.support.locks.LockRegistry;

/**
 * A Spring Integration {@link LockRegistry} on distlock, so that Spring Integration components that take a lock
 * registry (its {@code LockRegistryLeaderInitiator}, aggregators, file synchronizers) run on distlock's locks: the
 * lock of a key is {@link RedisLockClient#getLock(String) getLock(String.valueOf(key))}{@link RedisLock#asLock()
 * .asLock()}, a reentrant lock whose lease the client's watchdog renews for as long as it is held, with queued
 * waiters handed the lock in arrival order.
 *
 * <p>What it does not give: Spring Integration's {@code Lock} interface has no lease handle, so a holder of these
 * locks learns of a lost lease only when its next {@code tryLock} (reentry) or {@code unlock} fails with
 * {@link dev.distlock.core.LockLostException}, and it sees no fencing token. For leader election that reports a loss
 * at once and hands the epoch to the leader, use {@link dev.distlock.spring.leader.LeaderElection}.
 */
public final class DistlockLockRegistry implements LockRegistry<Lock> {

    private final RedisLockClient client;

    /** A registry over the locks of {@code client}. */
    public DistlockLockRegistry(RedisLockClient client) {
        this.client = client;
    }

    /**
     * The lock of {@code lockKey}.
     *
     * @throws IllegalArgumentException if the key's text is blank or longer than the client's maximum name length
     */
    @Override
    public Lock obtain(Object lockKey) {
        return this.client.getLock(String.valueOf(lockKey)).asLock();
    }
}
