package dev.distlock.reliability;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.KeyValue;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * Watches, from its own connection and thread, which owner token each of some hold keys stores, and whether queue keys
 * have entries, until closed: the raw view of who holds a lock, independent of what any client believes. Consecutive
 * samples with the same value form a {@link Run}; an absent key is recorded as the owner {@code ""}.
 */
final class HoldSampler implements AutoCloseable {

    /** One owner seen continuously in a key, from its first to its last sample. */
    record Run(String key, String owner, long firstNanos, long lastNanos) {

        long nanos() {
            return this.lastNanos - this.firstNanos;
        }
    }

    private final RedisCommands<String, String> redis;

    private final String[] holdKeys;

    private final String[] queueKeys;

    private final Map<String, Run> open = new HashMap<>();

    private final List<Run> closed = new ArrayList<>();

    private final Thread thread;

    private volatile boolean stopped;

    private long samples;

    private long queuedSamples;

    private HoldSampler(RedisCommands<String, String> redis, List<String> holdKeys, List<String> queueKeys) {
        this.redis = redis;
        this.holdKeys = holdKeys.toArray(String[]::new);
        this.queueKeys = queueKeys.toArray(String[]::new);
        this.thread = new Thread(this::run, "hold-sampler");
        this.thread.setDaemon(true);
    }

    /** Starts sampling every millisecond or so; {@link #close()} stops it. */
    static HoldSampler start(RedisCommands<String, String> redis, List<String> holdKeys, List<String> queueKeys) {
        HoldSampler sampler = new HoldSampler(redis, holdKeys, queueKeys);
        sampler.sampleOnce();
        sampler.thread.start();
        return sampler;
    }

    private void run() {
        while (!this.stopped) {
            sampleOnce();
            try {
                TimeUnit.MICROSECONDS.sleep(500);
            }
            catch (InterruptedException ex) {
                return;
            }
        }
    }

    private void sampleOnce() {
        List<KeyValue<String, String>> values = this.redis.mget(this.holdKeys);
        long now = System.nanoTime();
        boolean queued = false;
        for (String queue : this.queueKeys) {
            queued |= this.redis.llen(queue) > 0;
        }
        synchronized (this) {
            this.samples++;
            this.queuedSamples += queued ? 1 : 0;
            for (KeyValue<String, String> value : values) {
                String owner = QueuedKind.ownerOfHold(value.getValueOrElse(""));
                Run run = this.open.get(value.getKey());
                if (run != null && run.owner().equals(owner)) {
                    this.open.put(value.getKey(), new Run(run.key(), owner, run.firstNanos(), now));
                }
                else {
                    if (run != null) {
                        this.closed.add(run);
                    }
                    this.open.put(value.getKey(), new Run(value.getKey(), owner, now, now));
                }
            }
        }
    }

    /** Every run so far, in the order each began (per key). */
    synchronized List<Run> runs() {
        List<Run> all = new ArrayList<>(this.closed);
        all.addAll(this.open.values());
        all.sort(java.util.Comparator.comparingLong(Run::firstNanos));
        return all;
    }

    /** The owners seen in one key, in order, absent ({@code ""}) included. */
    List<String> owners(String key) {
        return runs().stream().filter((run) -> run.key().equals(key)).map(Run::owner).toList();
    }

    /** The longest continuous hold by one owner (absence not counted). */
    Run longestHold() {
        return runs().stream().filter((run) -> !run.owner().isEmpty())
            .max(java.util.Comparator.comparingLong(Run::nanos)).orElse(new Run("-", "", 0, 0));
    }

    synchronized long samples() {
        return this.samples;
    }

    /** Samples in which at least one queue key had an entry. */
    synchronized long queuedSamples() {
        return this.queuedSamples;
    }

    @Override
    public void close() throws InterruptedException {
        this.stopped = true;
        this.thread.join(5_000);
        sampleOnce();
    }
}
