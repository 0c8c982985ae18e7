package dev.distlock.benchmarks.contention;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Turns the attempts of one contention run into a {@link ContentionResult}. Only grants whose acquire returned inside
 * the measured window {@code [from, to)} count. Grants are totally ordered by their acquire return: the lock excludes,
 * so holder i returned from acquire before it released, and holder i+1 was granted only after that release.
 */
final class ContentionAnalysis {

    private static final long SECOND = 1_000_000_000L;

    private static final long FIFO_SLACK = 1_000_000L;

    private final List<List<Attempt>> byClient;

    private final long from;

    private final long to;

    private final List<Attempt> grants;

    ContentionAnalysis(List<List<Attempt>> byClient, long from, long to) {
        this.byClient = byClient;
        this.from = from;
        this.to = to;
        List<Attempt> inWindow = new ArrayList<>();
        for (List<Attempt> attempts : byClient) {
            for (Attempt attempt : attempts) {
                if (attempt.granted() && attempt.returned() >= from && attempt.returned() < to) {
                    inWindow.add(attempt);
                }
            }
        }
        inWindow.sort(Comparator.comparingLong(Attempt::returned));
        this.grants = inWindow;
    }

    ContentionResult result(String lock, int sectionMillis, long commands, double redisCpuSeconds, long clientCpuNanos,
            int failures) {
        int clients = this.byClient.size();
        double seconds = (this.to - this.from) / 1e9;
        int count = this.grants.size();
        long[] perClient = new long[clients];
        this.grants.forEach(grant -> perClient[grant.client()]++);
        int rewon = 0;
        int overtakes = 0;
        List<Long> handoffs = new ArrayList<>();
        List<Long> releasesToNext = new ArrayList<>();
        long[] releaseCalls = this.grants.stream().mapToLong((grant) -> grant.released() - grant.releasing()).toArray();
        for (int i = 0; i < count; i++) {
            Attempt grant = this.grants.get(i);
            if (overtookAnother(grant)) {
                overtakes++;
            }
            if (i == 0) {
                continue;
            }
            Attempt previous = this.grants.get(i - 1);
            if (previous.client() == grant.client()) {
                rewon++;
            }
            else {
                handoffs.add(grant.returned() - previous.released());
                releasesToNext.add(grant.returned() - previous.releasing());
            }
        }
        Percentiles handoff = new Percentiles(handoffs.stream().mapToLong(Long::longValue).toArray());
        Percentiles acquire = new Percentiles(acquireWaits());
        return new ContentionResult(lock, clients, sectionMillis, count / seconds,
                count == 0 ? Double.NaN : (double) commands / count, jain(perClient),
                count < 2 ? Double.NaN : (double) rewon / (count - 1),
                count == 0 ? Double.NaN : (double) overtakes / count,
                handoff.of(50) / 1e3, handoff.of(99) / 1e3, acquire.of(50) / 1e3, acquire.of(99) / 1e3,
                starvedClients(), longestGapNanos() / 1e6, failures, new Percentiles(releaseCalls).of(50) / 1e3,
                new Percentiles(releasesToNext.stream().mapToLong(Long::longValue).toArray()).of(50) / 1e3,
                count == 0 ? Double.NaN : redisCpuSeconds * 1e6 / count,
                count == 0 ? Double.NaN : clientCpuNanos / 1e3 / count);
    }

    /**
     * How long acquire calls took: every attempt that returned in the window (granted or timed out), and every attempt
     * still waiting at its end with its wait so far, so that a client starved through the window still counts.
     */
    private long[] acquireWaits() {
        List<Long> waits = new ArrayList<>();
        for (List<Attempt> attempts : this.byClient) {
            for (Attempt attempt : attempts) {
                if (attempt.returned() >= this.from && attempt.returned() < this.to) {
                    waits.add(attempt.returned() - attempt.started());
                }
                else if (attempt.started() < this.to && attempt.returned() >= this.to) {
                    waits.add(this.to - attempt.started());
                }
            }
        }
        return waits.stream().mapToLong(Long::longValue).toArray();
    }

    static double jain(long[] perClient) {
        double sum = 0;
        double squares = 0;
        for (long grants : perClient) {
            sum += grants;
            squares += (double) grants * grants;
        }
        return squares == 0 ? Double.NaN : sum * sum / (perClient.length * squares);
    }

    /** Whether another client was still waiting at this grant and had started its acquire over 1 ms earlier. */
    private boolean overtookAnother(Attempt grant) {
        for (int client = 0; client < this.byClient.size(); client++) {
            if (client == grant.client()) {
                continue;
            }
            Attempt pending = attemptAt(this.byClient.get(client), grant.returned());
            if (pending != null && pending.returned() > grant.returned()
                    && pending.started() < grant.started() - FIFO_SLACK) {
                return true;
            }
        }
        return false;
    }

    /** The last attempt of one client that started at or before {@code time} (a client's attempts are sequential). */
    private static @Nullable Attempt attemptAt(List<Attempt> attempts, long time) {
        int low = 0;
        int high = attempts.size() - 1;
        Attempt found = null;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            Attempt attempt = attempts.get(middle);
            if (attempt.started() <= time) {
                found = attempt;
                low = middle + 1;
            }
            else {
                high = middle - 1;
            }
        }
        return found;
    }

    private int starvedClients() {
        int windows = (int) Math.max(1, (this.to - this.from) / SECOND);
        int starved = 0;
        for (int client = 0; client < this.byClient.size(); client++) {
            boolean[] served = new boolean[windows];
            for (Attempt grant : this.grants) {
                if (grant.client() == client) {
                    served[(int) Math.min(windows - 1, (grant.returned() - this.from) / SECOND)] = true;
                }
            }
            for (boolean got : served) {
                if (!got) {
                    starved++;
                    break;
                }
            }
        }
        return starved;
    }

    private long longestGapNanos() {
        long longest = 0;
        for (int client = 0; client < this.byClient.size(); client++) {
            long last = this.from;
            for (Attempt grant : this.grants) {
                if (grant.client() == client) {
                    longest = Math.max(longest, grant.returned() - last);
                    last = grant.returned();
                }
            }
            longest = Math.max(longest, this.to - last);
        }
        return longest;
    }
}
