package dev.distlock.spring.boot.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.distlock.core.ForcedRelease;
import dev.distlock.core.HeldLease;
import dev.distlock.core.LockInfo;
import dev.distlock.core.RedisLockClient;
import dev.distlock.core.SemaphoreInfo;
import dev.distlock.core.internal.time.DurationFormat;
import dev.distlock.spring.leader.LeaderElection;
import dev.distlock.spring.leader.LeaderElections;
import dev.distlock.spring.leader.LeadershipContext;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The {@code distributedlocks} actuator endpoint.
 * <ul>
 * <li>{@code GET /actuator/distributedlocks}: this instance's id, its Redis target, the leases it holds now (name,
 * kind, fencing token, held for, remaining lease, renewals, owner thread) and its leader elections (group, whether it
 * competes and leads, the term's epoch and since when);</li>
 * <li>{@code GET /actuator/distributedlocks/{name}}: what Redis says about one lock name (holder and its instance,
 * remaining lease, fencing token, queued waiters), and, when the name is a semaphore, its permit count, the permits
 * held and by whom (owner, instance, fencing token, remaining lease) and its queued waiters: two round trips;</li>
 * <li>{@code DELETE /actuator/distributedlocks/{name}}: force-releases the lock whoever holds it and hands it to the
 * next queued waiter, in one step. Its holder loses the lease at its next renewal. Off by default: the endpoint's
 * access is read-only until {@code management.endpoint.distributedlocks.access=unrestricted}.</li>
 * </ul>
 * Durations are written as people write them ({@code 1.5s}, {@code 250ms}).
 */
@Endpoint(id = "distributedlocks", defaultAccess = Access.READ_ONLY)
public class DistributedLocksEndpoint {

    private final RedisLockClient client;

    private final @Nullable LeaderElections elections;

    /** An endpoint that shows no leader elections. */
    public DistributedLocksEndpoint(RedisLockClient client) {
        this(client, null);
    }

    /** @param elections this application's leader elections, if it runs any */
    public DistributedLocksEndpoint(RedisLockClient client, @Nullable LeaderElections elections) {
        this.client = client;
        this.elections = elections;
    }

    @ReadOperation
    public LeasesDescriptor leases() {
        List<LeaseDescriptor> leases = this.client.heldLeases().stream().map(LeaseDescriptor::of).toList();
        List<LeaderDescriptor> leaders = (this.elections != null)
                ? this.elections.elections().stream().map(LeaderDescriptor::of).toList() : List.of();
        return new LeasesDescriptor(this.client.instanceId(), this.client.redisTarget(), this.client.isConnected(),
                leases, leaders);
    }

    @ReadOperation
    public LockDescriptor lock(@Selector String name) {
        return LockDescriptor.of(this.client.inspect(name), SemaphoreDescriptor.of(this.client.inspectSemaphore(name)));
    }

    /**
     * Releases the lock {@code name} whoever holds it (exclusive, fair, read or write holds) and hands it to the next
     * queued waiter, in one step on Redis ({@link RedisLockClient#forceRelease}).
     */
    @DeleteOperation
    public ForceReleaseDescriptor forceRelease(@Selector String name) {
        ForcedRelease done = this.client.forceRelease(name);
        return new ForceReleaseDescriptor(name, done.released(), done.mode().name(), done.previousOwner(),
                done.previousOwnerInstanceId(), done.offeredTo(), LockInfo.instanceIdOf(done.offeredTo()));
    }

    /**
     * The leases of this instance.
     *
     * @param instanceId this instance's id (first part of its owner tokens)
     * @param redis where the lock connection goes
     * @param connected whether it is connected now
     * @param leases the leases held now, oldest first
     * @param leaders this instance's leader elections, one per group, in declaration order
     */
    public record LeasesDescriptor(String instanceId, String redis, boolean connected, List<LeaseDescriptor> leases,
            List<LeaderDescriptor> leaders) {
    }

    /**
     * This instance in the leader election of one group.
     *
     * @param group the group
     * @param lock the lock that grants leadership ({@code leader:<group>}), listed with the leases while it leads
     * @param competing whether this instance takes part (false before the application started and once it stops)
     * @param leader whether this instance leads the group now
     * @param epoch the current term's epoch (its fencing token), null when it does not lead
     * @param since when the current term began (ISO-8601), null when it does not lead
     * @param leaderFor how long it has led, null when it does not lead
     */
    public record LeaderDescriptor(String group, String lock, boolean competing, boolean leader, @Nullable Long epoch,
            @Nullable String since, @Nullable String leaderFor) {

        static LeaderDescriptor of(LeaderElection election) {
            Instant since = election.leaderSince().orElse(null);
            Long epoch = (since != null) ? election.context().map(LeadershipContext::epoch).orElse(null) : null;
            if (since == null || epoch == null) {
                return new LeaderDescriptor(election.group(), election.lockName(), election.isRunning(), false, null,
                        null, null);
            }
            Duration leaderFor = Duration.between(since, Instant.now());
            return new LeaderDescriptor(election.group(), election.lockName(), election.isRunning(), true, epoch,
                    since.toString(), format(leaderFor.isNegative() ? Duration.ZERO : leaderFor));
        }
    }

    /**
     * One lease this instance holds.
     *
     * @param name lock name
     * @param kind reentrant, fair, read, write, redlock or semaphore
     * @param fencingToken its fencing token; 0 until its holder asks for it (a blocking acquisition mints it on the
     * first {@code LockLease.fencingToken()} call)
     * @param heldFor since when it is held
     * @param remainingLease how long it stays valid without another renewal
     * @param renewals watchdog renewals so far
     * @param watchdog whether the watchdog renews it
     * @param ownerThread the thread holding it, null for asynchronous acquisitions
     */
    public record LeaseDescriptor(String name, String kind, long fencingToken, String heldFor, String remainingLease,
            long renewals, boolean watchdog, @Nullable String ownerThread) {

        static LeaseDescriptor of(HeldLease lease) {
            return new LeaseDescriptor(lease.name(), lease.kind(), lease.fencingToken(), format(lease.heldFor()),
                    format(lease.remainingValidity()), lease.renewals(), lease.watchdogRenewed(),
                    lease.ownerThread());
        }
    }

    /**
     * A lock name as Redis sees it.
     *
     * @param name lock name
     * @param held whether anyone holds it
     * @param mode FREE, EXCLUSIVE, WRITE or READ
     * @param owner the holder's owner token
     * @param ownerInstanceId which instance holds it
     * @param remainingLease the holder's remaining lease on Redis
     * @param fencingToken the holder's fencing token
     * @param queuedWaiters owners queued for it
     * @param readHolds live read holds
     * @param semaphore the semaphore of this name, or null when the name has no permit count or permits on Redis
     */
    public record LockDescriptor(String name, boolean held, String mode, @Nullable String owner,
            @Nullable String ownerInstanceId, String remainingLease, long fencingToken, long queuedWaiters,
            long readHolds, @Nullable SemaphoreDescriptor semaphore) {

        static LockDescriptor of(LockInfo info, @Nullable SemaphoreDescriptor semaphore) {
            return new LockDescriptor(info.name(), info.held(), info.mode().name(), info.owner(),
                    info.ownerInstanceId(), format(info.remainingLease()), info.fencingToken(), info.queuedWaiters(),
                    info.readHolds(), semaphore);
        }
    }

    /**
     * A semaphore as Redis sees it.
     *
     * @param permits the permit count stored on Redis
     * @param availablePermits permits free now
     * @param holders the permits held, the one whose lease ends first first
     * @param waiters owner tokens of the queued waiters, in arrival order
     */
    public record SemaphoreDescriptor(int permits, int availablePermits, List<PermitDescriptor> holders,
            List<String> waiters) {

        static @Nullable SemaphoreDescriptor of(SemaphoreInfo info) {
            if (info.permits() == 0 && info.holders().isEmpty()) {
                return null;
            }
            return new SemaphoreDescriptor(info.permits(), info.availablePermits(),
                    info.holders().stream().map(PermitDescriptor::of).toList(), info.waiters());
        }
    }

    /**
     * One permit held.
     *
     * @param owner the holder's owner token
     * @param ownerInstanceId which instance holds it
     * @param fencingToken the permit's fencing token
     * @param remainingLease its remaining lease on Redis
     */
    public record PermitDescriptor(String owner, @Nullable String ownerInstanceId, long fencingToken,
            String remainingLease) {

        static PermitDescriptor of(SemaphoreInfo.Holder holder) {
            return new PermitDescriptor(holder.owner(), holder.instanceId(), holder.fencingToken(),
                    format(holder.remainingLease()));
        }
    }

    /**
     * The outcome of a force-release. The evicted holder keeps running until it checks its lease or its next renewal
     * is refused; only storage that checks fencing tokens refuses its late writes.
     *
     * @param name lock name
     * @param released whether a hold was removed
     * @param mode what was held: EXCLUSIVE, WRITE, READ (every read hold removed), or FREE
     * @param previousOwner the removed hold's owner token, if any
     * @param previousOwnerInstanceId which instance held it before, if anyone
     * @param offeredTo the queued waiter the lock was handed to, if anyone waited
     * @param offeredToInstanceId which instance that waiter belongs to
     */
    public record ForceReleaseDescriptor(String name, boolean released, String mode, @Nullable String previousOwner,
            @Nullable String previousOwnerInstanceId, @Nullable String offeredTo,
            @Nullable String offeredToInstanceId) {
    }

    static String format(Duration duration) {
        return DurationFormat.format(duration);
    }
}
