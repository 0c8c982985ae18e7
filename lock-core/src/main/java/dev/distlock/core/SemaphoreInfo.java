package dev.distlock.core;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What Redis knows about a semaphore at one moment (see {@link RedisSemaphore#inspect()} and
 * {@link RedisLockClient#inspectSemaphore(String)}). A snapshot for people, not for decisions.
 *
 * @param name the semaphore name
 * @param permits the permit count stored in Redis; 0 when none is (the semaphore was never used, or Redis lost it)
 * @param holders the live permits, the one whose lease ends first first
 * @param waiters the owner tokens of the live queued waiters, in arrival order
 */
public record SemaphoreInfo(String name, int permits, List<Holder> holders, List<String> waiters) {

    public SemaphoreInfo {
        holders = List.copyOf(holders);
        waiters = List.copyOf(waiters);
    }

    /** The count less the permits held, never below zero (below it after the count was lowered under holders). */
    public int availablePermits() {
        return Math.max(0, this.permits - this.holders.size());
    }

    /**
     * One permit held.
     *
     * @param owner the owner token of the acquisition
     * @param instanceId the holder's instance id (the first part of the owner token), when it can be read
     * @param fencingToken the permit's fencing token (0 when fencing is off)
     * @param remainingLease how long its lease runs on Redis unless renewed
     */
    public record Holder(String owner, @Nullable String instanceId, long fencingToken, Duration remainingLease) {
    }
}
