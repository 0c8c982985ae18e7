package dev.distlock.benchmarks.contention;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

/**
 * Where the time of one handoff goes: two client instances pass one key back and forth (1 ms critical section),
 * while a tap (a pub/sub connection of its own, pattern-subscribed to the key's wake channels) notes when each
 * handoff announcement reaches a client process. Per handoff it splits the chain "release call begins -> next holder
 * running" into: the release call itself, release call -> announcement heard (request, script, {@code PUBLISH}, the
 * subscriber's socket) and announcement heard -> next holder's acquire returns (decode, the grant completed, the
 * waiting thread woken). The polling baseline publishes nothing: only its totals are shown.
 */
final class HandoffBreakdown {

    private static final Duration ACQUIRE_WAIT = Duration.ofSeconds(10);

    private static final long SECTION_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final RedisURI uri;

    HandoffBreakdown(RedisURI uri) {
        this.uri = uri;
    }

    /**
     * One subject's breakdown, in microseconds.
     *
     * @param lock the subject's label
     * @param handoffs handoffs measured (grants to the other client)
     * @param releaseCallP50 median release call
     * @param releaseToHeardP50 median release call begins -> announcement heard by the tap (NaN: nothing published)
     * @param heardToRunningP50 median announcement heard -> next holder's acquire returns (NaN: nothing published)
     * @param releaseToNextP50 median release call begins -> next holder's acquire returns
     */
    record Result(String lock, int handoffs, double releaseCallP50, double releaseToHeardP50,
            double heardToRunningP50, double releaseToNextP50) {
    }

    /**
     * One measured round of a subject; rounds of the same subject add up with {@link Samples#plus}, so subjects can
     * alternate in short rounds and a change in machine load hits them alike.
     */
    Samples run(List<LockClient> pair, String key, Duration warmup, Duration measure) throws InterruptedException {
        ConcurrentLinkedQueue<Long> heard = new ConcurrentLinkedQueue<>();
        RedisClient tapClient = RedisClient.create(this.uri);
        try (StatefulRedisPubSubConnection<String, String> tap = tapClient.connectPubSub()) {
            tap.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String pattern, String channel, String message) {
                    heard.add(System.nanoTime());
                }
            });
            tap.sync().psubscribe("*{" + key + "}*");
            List<List<Attempt>> attempts = List.of(new ArrayList<>(), new ArrayList<>());
            ClientThreads threads = new ClientThreads();
            threads.start("breakdown", 2, (client) -> {
                LockClient locks = pair.get(client);
                while (!threads.stopping()) {
                    long started = System.nanoTime();
                    LockClient.Held held = locks.tryAcquire(key, ACQUIRE_WAIT);
                    long acquired = System.nanoTime();
                    if (held == null) {
                        continue;
                    }
                    ClientThreads.sleepUntil(acquired + SECTION_NANOS);
                    long releasing = System.nanoTime();
                    held.release();
                    attempts.get(client).add(new Attempt(client, started, acquired, releasing, System.nanoTime(),
                            true));
                }
            });
            long from;
            long to;
            try {
                Thread.sleep(warmup.toMillis());
                from = System.nanoTime();
                Thread.sleep(measure.toMillis());
                to = System.nanoTime();
            }
            finally {
                threads.stop(Duration.ofSeconds(15));
            }
            return analyse(attempts, new ArrayList<>(heard), from, to);
        }
        finally {
            tapClient.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    static Samples analyse(List<List<Attempt>> attempts, List<Long> heard, long from, long to) {
        List<Attempt> grants = new ArrayList<>();
        attempts.forEach((own) -> own.stream().filter((a) -> a.returned() >= from && a.returned() < to)
            .forEach(grants::add));
        grants.sort((a, b) -> Long.compare(a.returned(), b.returned()));
        heard.sort(Long::compare);
        List<Long> releaseCalls = new ArrayList<>();
        List<Long> toHeard = new ArrayList<>();
        List<Long> heardToRunning = new ArrayList<>();
        List<Long> toNext = new ArrayList<>();
        for (int i = 1; i < grants.size(); i++) {
            Attempt previous = grants.get(i - 1);
            Attempt next = grants.get(i);
            if (previous.client() == next.client()) {
                continue;
            }
            releaseCalls.add(previous.released() - previous.releasing());
            toNext.add(next.returned() - previous.releasing());
            Long announcement = firstBetween(heard, previous.releasing(), next.returned());
            if (announcement != null) {
                toHeard.add(announcement - previous.releasing());
                heardToRunning.add(next.returned() - announcement);
            }
        }
        return new Samples(releaseCalls, toHeard, heardToRunning, toNext);
    }

    /**
     * The latencies of the handoffs of one or more rounds, in nanoseconds.
     *
     * @param releaseCalls release call durations
     * @param toHeard release call begins -> announcement heard by the tap
     * @param heardToRunning announcement heard -> next holder's acquire returns
     * @param toNext release call begins -> next holder's acquire returns
     */
    record Samples(List<Long> releaseCalls, List<Long> toHeard, List<Long> heardToRunning, List<Long> toNext) {

        Samples plus(Samples other) {
            return new Samples(joined(this.releaseCalls, other.releaseCalls), joined(this.toHeard, other.toHeard),
                    joined(this.heardToRunning, other.heardToRunning), joined(this.toNext, other.toNext));
        }

        Result result(String lock) {
            return new Result(lock, this.toNext.size(), median(this.releaseCalls), median(this.toHeard),
                    median(this.heardToRunning), median(this.toNext));
        }

        private static List<Long> joined(List<Long> a, List<Long> b) {
            List<Long> all = new ArrayList<>(a);
            all.addAll(b);
            return all;
        }
    }

    private static Long firstBetween(List<Long> sorted, long from, long to) {
        int low = 0;
        int high = sorted.size();
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (sorted.get(middle) < from) {
                low = middle + 1;
            }
            else {
                high = middle;
            }
        }
        return (low < sorted.size() && sorted.get(low) <= to) ? sorted.get(low) : null;
    }

    private static double median(List<Long> nanos) {
        if (nanos.isEmpty()) {
            return Double.NaN;
        }
        return new Percentiles(nanos.stream().mapToLong(Long::longValue).toArray()).of(50) / 1e3;
    }
}
