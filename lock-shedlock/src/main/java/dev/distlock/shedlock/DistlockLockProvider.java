package dev.distlock.shedlock;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionException;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.RedisLockClient;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * A ShedLock {@link LockProvider} on distlock's Redis locks. An application that uses ShedLock's
 * {@code @SchedulerLock} swaps its {@code LockProvider} bean for this one and keeps its annotations:
 *
 * <pre>{@code
 * @Bean
 * LockProvider lockProvider(RedisLockClient client) {
 *     return new DistlockLockProvider(client);
 * }
 * }</pre>
 *
 * <p>ShedLock's semantics, on a distlock lock of the same name (so a {@code @SchedulerLock(name = "report")} and a
 * {@code @DistributedLock(name = "report")} exclude each other, which helps a gradual migration):
 * <ul>
 * <li>{@code lockAtMostFor} is the lock's fixed lease: the key expires after it even if the task still runs, and it is
 * never renewed (for a lock held as long as the task runs, use {@code @DistributedLock}, whose lease the watchdog
 * renews). It is raised to distlock's shortest lease ({@link LockClientOptions#MIN_LEASE_TIME}) if shorter.</li>
 * <li>{@code lockAtLeastFor}: an unlock before it leaves the lock held for the rest of it. The key is re-leased to
 * end shortly after that (the rest plus 2%, at least one second), so if this instance stops it frees about when
 * {@code lockAtLeastFor} is over rather than after {@code lockAtMostFor}; a timer releases it on time (see
 * {@link #close()}).</li>
 * <li>One attempt, no waiting; a second {@link #lock} of a held name is refused, also on the same thread (the
 * acquisitions are not reentrant), and a lock may be unlocked from another thread.</li>
 * <li>{@link SimpleLock#extend} moves the lease's end to the new {@code lockAtMostFor} from now, later or earlier, by
 * an owner-checked re-lease of the key ({@link LockLease#expireIn}), and returns the lock to use from then on, whose
 * {@code lockAtLeastFor} counts from the extension; it is empty when the lock was lost or had expired (the key is
 * never recreated). As for every ShedLock provider, the extended lock can neither be unlocked nor extended again.
 * So {@code LockExtender.extendActiveLock} works in a task, and {@code KeepAliveLockProvider} accepts this provider
 * (it is an {@link ExtensibleLockProvider}). A Redis that cannot be reached fails the extension with
 * {@link dev.distlock.core.LockOperationException} and leaves the lock as it was, still to be unlocked.</li>
 * <li>A Redis that cannot be reached fails {@link #lock} with distlock's
 * {@link dev.distlock.core.LockOperationException}: the task does not run.</li>
 * </ul>
 *
 * <p>The provider does not own the client. Close the provider when the application stops (a Spring bean is closed
 * by its container): locks still held for their {@code lockAtLeastFor} are released then.
 */
public final class DistlockLockProvider implements ExtensibleLockProvider, AutoCloseable {

    private final RedisLockClient client;

    private final MinimumHoldTimer timer = new MinimumHoldTimer();

    /** @param client the lock client; its key prefix applies to ShedLock's lock names too */
    public DistlockLockProvider(RedisLockClient client) {
        this.client = Objects.requireNonNull(client, "client must not be null");
    }

    @Override
    public Optional<SimpleLock> lock(LockConfiguration configuration) {
        Objects.requireNonNull(configuration, "configuration must not be null");
        long startedAt = System.nanoTime();
        LockLease lease;
        try {
            // asynchronous acquisitions are not reentrant, and their leases are not bound to this thread
            lease = this.client.getLock(configuration.getName())
                .acquireAsync(Duration.ZERO, lease(configuration.getLockAtMostFor()))
                .toCompletableFuture()
                .join();
        }
        catch (CompletionException ex) {
            if (ex.getCause() instanceof LockNotAcquiredException) {
                return Optional.empty();
            }
            if (ex.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw ex;
        }
        return Optional.of(new DistlockSimpleLock(configuration, lease, startedAt, this.timer));
    }

    /**
     * Releases the locks still held for the rest of their {@code lockAtLeastFor}, and stops the timer that would
     * release them. Without it they would stay until their {@code lockAtMostFor}.
     */
    @Override
    public void close() {
        this.timer.close();
    }

    /** The fixed lease for {@code lockAtMostFor}: raised to the shortest lease, capped at the longest. */
    static Duration lease(Duration lockAtMostFor) {
        if (lockAtMostFor.compareTo(LockClientOptions.MIN_LEASE_TIME) < 0) {
            return LockClientOptions.MIN_LEASE_TIME;
        }
        return (lockAtMostFor.compareTo(LockClientOptions.MAX_LEASE_TIME) > 0) ? LockClientOptions.MAX_LEASE_TIME
                : lockAtMostFor;
    }
}
