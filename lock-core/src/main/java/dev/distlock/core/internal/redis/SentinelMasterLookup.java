package dev.distlock.core.internal.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.codec.StringCodec;
import org.jspecify.annotations.Nullable;

/**
 * Where a Sentinel-managed master is now, for the {@link SentinelMasterFollower}: every reachable Sentinel of the URI
 * is asked {@code SENTINEL MASTER <name>} in parallel and the answer with the highest configuration epoch wins (the
 * Sentinel that led the failover has it first; the others learn it within a few seconds), ties going to the address
 * most Sentinels report. Each Sentinel connection is opened for the question and closed after the answer.
 */
final class SentinelMasterLookup {

    private static final Duration MAX_RESOLVE_TIMEOUT = Duration.ofSeconds(2);

    private final RedisClient client;

    private final RedisURI sentinelUri;

    private final String masterId;

    private final Duration resolveTimeout;

    /**
     * @param client the Lettuce client to open Sentinel connections on
     * @param sentinelUri a URI with Sentinels and a master id; its timeout (at most 2 s) bounds one lookup
     */
    SentinelMasterLookup(RedisClient client, RedisURI sentinelUri) {
        this.client = client;
        this.sentinelUri = sentinelUri;
        this.masterId = sentinelUri.getSentinelMasterId();
        Duration timeout = sentinelUri.getTimeout();
        this.resolveTimeout = (timeout.compareTo(MAX_RESOLVE_TIMEOUT) < 0) ? timeout : MAX_RESOLVE_TIMEOUT;
    }

    /**
     * Where the master is now, by the Sentinels' highest configuration epoch.
     *
     * @throws RedisConnectionException if no Sentinel answered within the resolve timeout; the message says who was
     * asked and what the last one said
     */
    MasterAddress resolve() {
        List<RedisURI> sentinels = this.sentinelUri.getSentinels();
        List<CompletableFuture<Map<String, String>>> answers = new ArrayList<>();
        for (RedisURI sentinel : sentinels) {
            answers.add(askMaster(sentinel));
        }
        long deadline = System.nanoTime() + this.resolveTimeout.toNanos();
        List<Answer> seen = new ArrayList<>();
        Throwable last = null;
        for (CompletableFuture<Map<String, String>> answer : answers) {
            try {
                Map<String, String> master = answer.get(Math.max(1, deadline - System.nanoTime()),
                        TimeUnit.NANOSECONDS);
                seen.add(new Answer(new MasterAddress(master.get("ip"), Integer.parseInt(master.get("port"))),
                        Long.parseLong(master.getOrDefault("config-epoch", "0"))));
            }
            catch (ExecutionException ex) {
                last = ex.getCause();
            }
            catch (TimeoutException | RuntimeException ex) {
                last = ex;
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new RedisConnectionException("Interrupted while asking the Sentinels for master '"
                        + this.masterId + "'", ex);
            }
        }
        MasterAddress best = best(seen);
        if (best == null) {
            throw new RedisConnectionException("No Sentinel of " + sentinels + " told where master '" + this.masterId
                    + "' is within " + this.resolveTimeout.toMillis() + " ms (SENTINEL MASTER " + this.masterId
                    + "); last answer: " + last, last);
        }
        return best;
    }

    /** The address with the highest epoch, ties going to the one most Sentinels report; null when none answered. */
    private static @Nullable MasterAddress best(List<Answer> seen) {
        @Nullable MasterAddress best = null;
        long bestEpoch = Long.MIN_VALUE;
        int bestVotes = 0;
        for (Answer answer : seen) {
            int votes = (int) seen.stream().filter((other) -> other.address().equals(answer.address())).count();
            if (answer.epoch() > bestEpoch || (answer.epoch() == bestEpoch && votes > bestVotes)) {
                best = answer.address();
                bestEpoch = answer.epoch();
                bestVotes = votes;
            }
        }
        return best;
    }

    /** One Sentinel's answer: where it says the master is, and its configuration epoch. */
    private record Answer(MasterAddress address, long epoch) {
    }

    private CompletableFuture<Map<String, String>> askMaster(RedisURI sentinel) {
        return this.client.connectSentinelAsync(StringCodec.UTF8, sentinel).thenCompose((connection) -> connection
            .async().master(this.masterId).toCompletableFuture()
            .orTimeout(this.resolveTimeout.toMillis(), TimeUnit.MILLISECONDS)
            .whenComplete((ignored, ex) -> connection.closeAsync()));
    }
}
