package dev.distlock.benchmarks.contention;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * How long and how wide the harness runs, and where it writes the report.
 *
 * @param quick whether this is the short smoke run
 * @param clientCounts contention: numbers of client instances on one key
 * @param sectionsMillis contention: critical sections held per grant
 * @param warmup contention: warm-up before counting
 * @param measure contention: measured window
 * @param waiters waiting: client instances blocked on the held lock
 * @param settle waiting: pause after the waiters started, before counting
 * @param blocked waiting: how long they are counted while blocked
 * @param threadCounts uncontended: threads sharing one client
 * @param uncontendedRounds uncontended: rounds per thread count, alternating the subjects
 * @param uncontendedWarmup uncontended: warm-up per round
 * @param uncontendedMeasure uncontended: measured window per round
 * @param out directory for {@code report.md} and {@code contention.png}
 * @param redis a Redis to measure against ({@code redis://}, {@code rediss://}, credentials in the URI), or null to
 * start the embedded redis-server 7.0.15 on loopback
 * @param only {@code uncontended}, {@code contention} (with waiting and the handoff breakdown) or {@code breakdown}
 * to run that part alone, or the empty string for every scenario
 */
record BenchmarkSettings(boolean quick, List<Integer> clientCounts, List<Integer> sectionsMillis, Duration warmup,
        Duration measure, int waiters, Duration settle, Duration blocked, List<Integer> threadCounts,
        int uncontendedRounds, Duration uncontendedWarmup, Duration uncontendedMeasure, Path out,
        @Nullable String redis, String only) {

    static final String USAGE = "arguments: [--quick] [--out <directory>] [--redis redis://[user:password@]host:port]"
            + " [--only uncontended|contention|breakdown]"
            + "  (default directory: target/contention; default Redis: an embedded redis-server 7.0.15 on loopback)";

    /** Parses the command line; blank arguments (an empty Maven property) are ignored. */
    static BenchmarkSettings parse(String... args) {
        boolean quick = false;
        Path out = Path.of("target", "contention");
        String redis = null;
        String only = "";
        for (int i = 0; i < args.length; i++) {
            String arg = args[i].trim();
            if (arg.isEmpty()) {
                continue;
            }
            if (arg.equals("--quick")) {
                quick = true;
            }
            else if (arg.equals("--out") && i + 1 < args.length) {
                out = Path.of(args[++i].trim());
            }
            else if (arg.startsWith("--out=")) {
                out = Path.of(arg.substring("--out=".length()));
            }
            else if (arg.equals("--redis") && i + 1 < args.length) {
                redis = redisUri(args[++i].trim());
            }
            else if (arg.startsWith("--redis=")) {
                redis = redisUri(arg.substring("--redis=".length()));
            }
            else if (arg.equals("--only") && i + 1 < args.length) {
                only = scenario(args[++i].trim());
            }
            else if (arg.startsWith("--only=")) {
                only = scenario(arg.substring("--only=".length()));
            }
            else {
                throw new IllegalArgumentException("Unknown argument '" + arg + "'; " + USAGE);
            }
        }
        BenchmarkSettings settings = quick ? quick(out) : full(out);
        settings = (redis == null) ? settings : settings.on(redis);
        return only.isEmpty() ? settings : settings.only(only);
    }

    private static String scenario(String name) {
        if (!name.equals("uncontended") && !name.equals("contention") && !name.equals("breakdown")) {
            throw new IllegalArgumentException("--only takes 'uncontended', 'contention' or 'breakdown', was '" + name
                    + "'; " + USAGE);
        }
        return name;
    }

    /** The same settings, running only the {@code uncontended} or the {@code contention} (and waiting) scenarios. */
    BenchmarkSettings only(String scenario) {
        return new BenchmarkSettings(this.quick, this.clientCounts, this.sectionsMillis, this.warmup, this.measure,
                this.waiters, this.settle, this.blocked, this.threadCounts, this.uncontendedRounds,
                this.uncontendedWarmup, this.uncontendedMeasure, this.out, this.redis, scenario);
    }

    boolean runs(String scenario) {
        return this.only.isEmpty() || this.only.equals(scenario)
                || (this.only.equals("breakdown") && scenario.equals("contention"));
    }

    private static String redisUri(String uri) {
        if (!uri.startsWith("redis://") && !uri.startsWith("rediss://")) {
            throw new IllegalArgumentException("--redis takes a redis:// or rediss:// URI, e.g. "
                    + "redis://user:password@host:6379, was '" + uri + "'; " + USAGE);
        }
        return uri;
    }

    /** The same settings against the Redis at {@code uri}. */
    BenchmarkSettings on(String uri) {
        return new BenchmarkSettings(this.quick, this.clientCounts, this.sectionsMillis, this.warmup, this.measure,
                this.waiters, this.settle, this.blocked, this.threadCounts, this.uncontendedRounds,
                this.uncontendedWarmup, this.uncontendedMeasure, this.out, uri, this.only);
    }

    /**
     * About four and a half minutes: 1 s warm-up + 5 s per contention run, 5 s blocked, 5 rounds of 0.5 s warm-up +
     * 1 s per uncontended run (five rather than three since round 3, session 9: one burst of load on the box could
     * take a tenth off one subject's total).
     */
    static BenchmarkSettings full(Path out) {
        return new BenchmarkSettings(false, List.of(2, 8, 32), List.of(0, 1), Duration.ofSeconds(1),
                Duration.ofSeconds(5), 32, Duration.ofSeconds(1), Duration.ofSeconds(5), List.of(1, 4, 16, 64),
                5, Duration.ofMillis(500), Duration.ofSeconds(1), out, null, "");
    }

    /** About one minute, the same scenarios with short windows: to check the harness works, not for numbers. */
    static BenchmarkSettings quick(Path out) {
        return new BenchmarkSettings(true, List.of(2, 8, 32), List.of(0, 1), Duration.ofMillis(300),
                Duration.ofSeconds(1), 32, Duration.ofMillis(300), Duration.ofSeconds(1), List.of(1, 4, 16, 64),
                1, Duration.ofMillis(200), Duration.ofMillis(500), out, null, "");
    }

    /** The longest a scenario waits for the JIT to settle before its measured windows. */
    Duration compilerWarmupLimit() {
        return this.quick ? Duration.ofSeconds(2) : Duration.ofSeconds(20);
    }

    int poolSize() {
        return Math.max(this.waiters + 1, this.clientCounts.stream().mapToInt(Integer::intValue).max().orElse(1));
    }
}
