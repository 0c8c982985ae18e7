package dev.distlock.core.internal.redis;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.RedisException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves a {@link MasterTopology}'s connection set to a new master, for the {@link SentinelMasterFollower}: opens a new
 * set on it, checks that it reports role master, subscribes the active channels on it, puts it in use and closes the
 * old set. Retiring closes the set at once when its master was announced replaced, so commands fail fast meanwhile.
 */
final class MasterMover implements SentinelMasterFollower.Target {

    private static final Logger logger = LoggerFactory.getLogger(MasterMover.class);

    private static final long MOVE_TIMEOUT_MILLIS = 5_000;

    private final MasterTopology topology;

    private final Set<String> channels;

    private final String masterId;

    /**
     * @param channels the gateway's subscribed channels (a live view), subscribed again on the new master
     * @param masterId the master id the Sentinels know the master by, for messages
     */
    MasterMover(MasterTopology topology, Set<String> channels, String masterId) {
        this.topology = topology;
        this.channels = channels;
        this.masterId = masterId;
    }

    @Override
    public @Nullable MasterAddress current() {
        MasterConnections current = this.topology.connections();
        return current.isRetired() ? null : current.address();
    }

    @Override
    public void retire(MasterAddress demoted) {
        MasterConnections current = this.topology.connections();
        if (demoted.equals(current.address()) && !current.isRetired()) {
            current.retire();
            logger.info("Redis master '{}' at {} was replaced: lock connections to it closed", this.masterId, demoted);
        }
    }

    @Override
    public void moveTo(MasterAddress master, String reason) {
        long started = System.nanoTime();
        MasterConnections next = this.topology.openOn(master);
        List<String> resubscribed;
        try {
            String role = String.valueOf(await(next.commands().role()).get(0));
            if (!"master".equals(role)) {
                throw new RedisException("The Sentinels report " + master + " as master '"
                        + this.masterId + "', but it reports role " + role);
            }
            resubscribed = List.copyOf(this.channels);
            if (!resubscribed.isEmpty()) {
                await(next.pubSub().subscribe(resubscribed.toArray(String[]::new)));
            }
        }
        catch (RuntimeException ex) {
            next.close();
            throw ex;
        }
        MasterConnections previous = this.topology.replace(next);
        if (previous == null) {
            return;
        }
        previous.close();
        reconcileChannels(next, resubscribed);
        next.warmScripts();
        logger.info("Lock connections moved from Redis {} to the new master '{}' at {} in {} ms ({}); {} "
                + "channel(s) re-subscribed", previous.address(), this.masterId,
                master, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), reason, resubscribed.size());
    }

    /** Channels subscribed or unsubscribed on the old set while the new one was being prepared. */
    private void reconcileChannels(MasterConnections next, List<String> resubscribed) {
        String[] added = this.channels.stream().filter((c) -> !resubscribed.contains(c)).toArray(String[]::new);
        if (added.length > 0) {
            next.pubSub().subscribe(added);
        }
        String[] removed = resubscribed.stream().filter((c) -> !this.channels.contains(c)).toArray(String[]::new);
        if (removed.length > 0) {
            next.pubSub().unsubscribe(removed);
        }
    }

    private static <T> T await(CompletionStage<T> stage) {
        try {
            return stage.toCompletableFuture().get(MOVE_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        }
        catch (ExecutionException ex) {
            throw (ex.getCause() instanceof RedisException redis) ? redis
                    : new RedisException(String.valueOf(ex.getCause()), ex.getCause());
        }
        catch (TimeoutException ex) {
            throw new RedisException("No reply within " + MOVE_TIMEOUT_MILLIS + " ms", ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new RedisException("Interrupted", ex);
        }
    }
}
