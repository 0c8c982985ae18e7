package dev.distlock.spring.leader;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import dev.distlock.core.LockLease;
import dev.distlock.core.RedisLock;
import dev.distlock.core.RedisLockClient;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;

/**
 * Leader election for one group: of all the instances that run an election for the same group on the same Redis
 * (and key prefix), one leads at a time. Leadership is a hold of the lock {@code leader:<group>} with a
 * watchdog-renewed lease, so it lasts as long as the leader's process keeps renewing it.
 *
 * <p><b>Candidates wait in line.</b> An instance that does not lead waits for the lock with a blocking acquisition,
 * which queues it in Redis: when the leader releases (it yields or stops), the lock is handed straight to the
 * candidate that has waited longest, without polling. When the leader dies, the next candidate leads once its lease
 * has run out on Redis.
 *
 * <p><b>Revocation comes first.</b> The leader is told that it lost leadership ({@link LeaderCandidate#onRevoked})
 * when its lease is lost: a renewal was refused (the key was deleted, flushed or taken over) or the lease's validity
 * deadline passed without a successful renewal (Redis unreachable, or this process was paused). The deadline is
 * measured on this instance's monotonic clock from when the last renewal was sent, minus a drift margin, so it passes
 * before the key can expire on Redis and before another instance can be granted leadership. A process paused for
 * longer than its lease learns of the loss when it resumes, and the successor's {@linkplain LeadershipContext#epoch()
 * epoch} is greater than its own: that is what fences the writes it may still make.
 *
 * <p><b>Stopping gives leadership away.</b> {@link #stop()} (the application context closing) ends the term: the
 * candidate's {@code onRevoked} runs, then the lock is released and handed to the next candidate at once, instead of
 * after a lease.
 *
 * <p>Not meant for: exclusion without fencing across long pauses (no lock gives that; use the epoch), or leading
 * without Redis: while Redis is unreachable for longer than the lease, nobody leads.
 *
 * <p>The election runs on one daemon thread of its own, {@code distlock-leader-<group>}, which also runs the
 * candidate's callbacks. It needs a client with fencing on (the default), since the epoch is the fencing token.
 */
public final class LeaderElection implements SmartLifecycle {

    /** The lifecycle phase: late, so that leadership is given up before the beans the leader's work uses stop. */
    public static final int DEFAULT_PHASE = Integer.MAX_VALUE - 1000;

    /** The default pause before trying again after Redis failed to answer. */
    public static final Duration DEFAULT_RETRY_DELAY = Duration.ofSeconds(1);

    static final String LOCK_PREFIX = "leader:";

    private static final Logger logger = LoggerFactory.getLogger(LeaderElection.class);

    /** One blocking acquisition; the candidate waits again right after, so this only bounds a single call. */
    private static final Duration WAIT_SLICE = Duration.ofSeconds(30);

    private final RedisLock lock;

    private final String group;

    private final LeaderCandidate candidate;

    private final String instanceId;

    private final Duration retryDelay;

    private final ElectionThread thread;

    private volatile @Nullable Term current;

    /** An election with {@link #DEFAULT_RETRY_DELAY}. */
    public LeaderElection(RedisLockClient client, String group, LeaderCandidate candidate) {
        this(client, group, candidate, DEFAULT_RETRY_DELAY);
    }

    /**
     * An election of {@code group}; nothing happens before {@link #start()}.
     *
     * @param client the lock client; must mint fencing tokens
     * @param group the group's name: every instance of the group uses the same
     * @param candidate told when this instance leads and when it stops leading
     * @param retryDelay the pause before trying again when Redis did not answer
     * @throws IllegalArgumentException if the group is blank or too long, the delay not positive, or fencing is off
     */
    public LeaderElection(RedisLockClient client, String group, LeaderCandidate candidate, Duration retryDelay) {
        if (group == null || group.isBlank()) {
            throw new IllegalArgumentException("The leader group must not be blank: name the group every instance"
                    + " of the application competes in (distributed-lock.leader.group or LeaderCandidate.group())");
        }
        if (retryDelay == null || retryDelay.isNegative() || retryDelay.isZero()) {
            throw new IllegalArgumentException("The retry delay of leader election '" + group + "' must be positive,"
                    + " was " + retryDelay + ": use e.g. 1s (distributed-lock.leader.retry-delay)");
        }
        if (!client.options().fencing()) {
            throw new IllegalArgumentException("Leader election '" + group + "' needs fencing tokens (the epoch of"
                    + " a term is its fencing token), but the lock client was created with fencing off: set"
                    + " distributed-lock.fencing=true (LockClientOptions.builder().fencing(true))");
        }
        this.lock = client.getLock(LOCK_PREFIX + group);
        this.group = group;
        this.candidate = candidate;
        this.instanceId = client.instanceId();
        this.retryDelay = retryDelay;
        this.thread = new ElectionThread(group);
    }

    /** The group this election is for. */
    public String group() {
        return this.group;
    }

    /** The name of the lock that grants leadership ({@code leader:<group>}), as the Actuator endpoint shows it. */
    public String lockName() {
        return this.lock.name();
    }

    /** Whether this instance leads the group now (no round trip); see {@link LeadershipContext#isLeader()}. */
    public boolean isLeader() {
        Term term = this.current;
        return term != null && term.isLeader();
    }

    /** The term in progress on this instance, if it leads (or has just stopped leading and is being told so). */
    public Optional<LeadershipContext> context() {
        return Optional.ofNullable(this.current);
    }

    /** When the current term began (wall clock), while this instance leads. */
    public Optional<Instant> leaderSince() {
        Term term = this.current;
        return (term != null && term.isLeader()) ? Optional.of(term.since()) : Optional.empty();
    }

    /** Gives up the current term, if this instance leads; see {@link LeadershipContext#yield()}. */
    public void yieldLeadership() {
        Term term = this.current;
        if (term != null) {
            term.yield();
        }
    }

    /** Starts competing for leadership, on the election's own thread. Does nothing if it runs already. */
    @Override
    public void start() {
        this.thread.start(this::run);
    }

    /**
     * Stops competing: a leader's term ends ({@code onRevoked} runs, then the lock is released to the next candidate),
     * a waiting candidate leaves the line. Returns when that is done, or after 10 s if a callback does not return.
     */
    @Override
    public void stop() {
        if (!this.thread.stop()) {
            return;
        }
        Term term = this.current;
        if (term != null) {
            term.end(Term.Ending.STOPPED);
        }
        this.thread.join();
    }

    @Override
    public boolean isRunning() {
        return this.thread.isRunning();
    }

    @Override
    public int getPhase() {
        return DEFAULT_PHASE;
    }

    private void run() {
        try {
            LockLease lease;
            while ((lease = awaitLock()) != null) {
                Long epoch = epochOf(lease);
                if (epoch == null) {
                    continue;
                }
                Term term = begin(lease, epoch);
                if (term == null) {
                    return;
                }
                lead(term);
            }
        }
        finally {
            this.current = null;
        }
    }

    /** Waits in line for the lock until it is granted (the lease) or the election stops (null). */
    private @Nullable LockLease awaitLock() {
        while (this.thread.enterInterruptible()) {
            try {
                Optional<LockLease> lease = this.lock.tryAcquire(WAIT_SLICE);
                if (lease.isPresent()) {
                    return lease.get();
                }
            }
            catch (InterruptedException ex) {
                // stop() interrupted the wait; the loop condition ends it
            }
            catch (RuntimeException ex) {
                logger.warn("Leader election of group '{}' could not wait for its lock, trying again in {} ms: {}",
                        this.group, this.retryDelay.toMillis(), ex.toString());
                ElectionThread.pause(this.retryDelay);
            }
            finally {
                this.thread.leaveInterruptible();
            }
        }
        return null;
    }

    /**
     * The term's epoch: the lease's fencing token, minted now that the lock is held; null when it could not be had
     * (lock lost meanwhile, Redis silent): the lease is released and the election queues again after the retry delay.
     */
    private @Nullable Long epochOf(LockLease lease) {
        try {
            return lease.fencingToken();
        }
        catch (RuntimeException ex) {
            logger.warn("Leader election of group '{}' got the lock but not its epoch, trying again in {} ms: {}",
                    this.group, this.retryDelay.toMillis(), ex.toString());
            try {
                lease.close();
            }
            catch (RuntimeException closing) {
                // lost or unreachable: the lease ends by itself
            }
            ElectionThread.pause(this.retryDelay);
            return null;
        }
    }

    /** Makes the granted lease the current term, or releases it if the election stopped meanwhile. */
    private @Nullable Term begin(LockLease lease, long epoch) {
        Term term = new Term(this.group, lease, epoch);
        if (!this.thread.ifRunning(() -> this.current = term)) {
            term.release();
            return null;
        }
        lease.addLossListener((loss) -> {
            if (term.end(Term.Ending.LOST)) {
                logger.warn("Instance '{}' lost leadership of group '{}' (epoch {}): {}", this.instanceId,
                        this.group, loss.fencingToken(), loss.reason());
            }
        });
        return term;
    }

    /** Runs one term: grant, wait for its end, revoke, release. */
    private void lead(Term term) {
        logger.info("Instance '{}' leads group '{}' (epoch {})", this.instanceId, this.group, term.epoch());
        boolean grantFailed = false;
        boolean granted = term.isLeader();
        if (granted) {
            try {
                this.candidate.onGranted(term);
            }
            catch (RuntimeException ex) {
                logger.error("The leader candidate of group '{}' failed when granted leadership (epoch {}); giving"
                        + " up this term", this.group, term.epoch(), ex);
                grantFailed = term.end(Term.Ending.YIELDED);
            }
        }
        Term.Ending ending = term.awaitEnd();
        try {
            if (granted) {
                this.candidate.onRevoked(term);
            }
        }
        catch (RuntimeException ex) {
            logger.error("The leader candidate of group '{}' failed when its leadership was revoked (epoch {})",
                    this.group, term.epoch(), ex);
        }
        finally {
            term.release();
            this.current = null;
        }
        if (ending != Term.Ending.LOST) {
            logger.info("Instance '{}' gave up leadership of group '{}' (epoch {}): {}", this.instanceId, this.group,
                    term.epoch(), (ending == Term.Ending.STOPPED) ? "stopping" : "yielded");
        }
        if (grantFailed) {
            this.thread.pauseInterruptibly(this.retryDelay);
        }
    }

    @Override
    public String toString() {
        return "LeaderElection[group=" + this.group + ", leader=" + isLeader() + "]";
    }
}
