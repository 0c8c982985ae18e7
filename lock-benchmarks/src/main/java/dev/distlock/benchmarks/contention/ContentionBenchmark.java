package dev.distlock.benchmarks.contention;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.distlock.core.LockClientOptions;
import dev.distlock.testsupport.RedisBinary;
import dev.distlock.testsupport.RedisServer;
import io.lettuce.core.RedisURI;

/**
 * The contention harness, run on purpose (never in {@code verify}): starts one real redis-server 7.0.15 on loopback
 * (or measures the Redis given with {@code --redis}, e.g. a user's own over a real network),
 * measures the polling baseline, the reentrant and the fair distlock lock in the same run, prints a markdown report and
 * writes it with a PNG chart to the output directory. Arguments: {@value BenchmarkSettings#USAGE}.
 *
 * <p>Scenarios, each with Redis commands counted by {@code CONFIG RESETSTAT} + {@code INFO commandstats}:
 * <ul>
 *   <li>contention: N client instances (2, 8, 32) on one key, critical section 0 and 1 ms;</li>
 *   <li>waiting: 32 client instances blocked on a held lock, then released;</li>
 *   <li>uncontended: 1, 4, 16, 64 threads sharing one client instance, each on its own key.</li>
 * </ul>
 * Everything it starts (the server, client instances, threads) it stops before returning.
 */
public final class ContentionBenchmark {

    /** How long the clients of a waiting run keep looking after their handoffs: the offer time and a margin. */
    private static final Duration AFTER_HANDOFFS = LockClientOptions.defaults().handoffOffer().plusSeconds(1);

    /** One unmeasured round of each subject while waiting for the JIT to settle. */
    private static final Duration COMPILER_SLICE = Duration.ofSeconds(1);

    /** Rounds the handoff breakdown's window is split in, each subject in turn. */
    private static final int BREAKDOWN_ROUNDS = 5;

    private final BenchmarkSettings settings;

    private final RedisURI uri;

    private final RedisStats stats;

    private ContentionBenchmark(BenchmarkSettings settings, RedisURI uri, RedisStats stats) {
        this.settings = settings;
        this.uri = uri;
        this.stats = stats;
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        BenchmarkSettings settings = BenchmarkSettings.parse(args);
        long began = System.nanoTime();
        List<String> environment = new ArrayList<>();
        environment.add("Date: " + Instant.now().truncatedTo(ChronoUnit.SECONDS));
        environment.add("Machine: " + Runtime.getRuntime().availableProcessors() + " CPUs, "
                + System.getProperty("os.name") + " " + System.getProperty("os.arch") + ", Java "
                + System.getProperty("java.runtime.version"));
        environment.add("Load average before: " + loadAverage());
        BenchmarkReport report;
        try (RedisServer server = (settings.redis() == null) ? RedisServer.start() : null) {
            RedisURI uri = RedisURI.create((server != null) ? server.uri() : settings.redis());
            try (RedisStats stats = new RedisStats(uri)) {
                environment.add((server != null)
                        ? "Redis " + stats.version() + " (" + RedisBinary.path() + ") on " + server.uri()
                                + ", one server for all scenarios"
                        : "Redis " + stats.version() + " at " + uri.getHost() + ":" + uri.getPort()
                                + (uri.isSsl() ? " (TLS)" : "") + ", given by --redis: commands and CPU of other "
                                + "clients of that server are counted too");
                ContentionBenchmark benchmark = new ContentionBenchmark(settings, uri, stats);
                List<ContentionResult> contention = new ArrayList<>();
                List<WaitingResult> waiting = new ArrayList<>();
                List<HandoffBreakdown.Result> breakdown = new ArrayList<>();
                if (settings.runs("contention")) {
                    benchmark.contendedAndWaiting(contention, waiting, breakdown);
                }
                List<UncontendedResult> uncontended = settings.runs("uncontended") ? benchmark.uncontended()
                        : List.of();
                environment.add("Load average after: " + loadAverage());
                environment.add(String.format(Locale.ROOT, "Harness run time: %.0f s%s",
                        (System.nanoTime() - began) / 1e9, settings.quick() ? " (--quick)" : ""));
                report = new BenchmarkReport(environment, settings.quick(), contention, waiting, uncontended,
                        breakdown);
            }
        }
        write(report, settings.out());
    }

    /** Prints the markdown report and writes it to {@code out}, with the contention chart where the JRE can draw. */
    private static void write(BenchmarkReport report, Path out) throws IOException {
        String markdown = MarkdownReport.render(report);
        System.out.println(markdown);
        Files.createDirectories(out);
        Path reportFile = out.resolve("report.md");
        Path chartFile = out.resolve("contention.png");
        Files.writeString(reportFile, markdown, StandardCharsets.UTF_8);
        try {
            new ContentionChart(report.contention()).write(chartFile);
            progress("wrote " + reportFile.toAbsolutePath() + " and " + chartFile.toAbsolutePath());
        }
        catch (IOException | LinkageError ex) {
            // A JRE without its font libraries (a jlinked or headless image) cannot draw text: the report stands alone.
            progress("wrote " + reportFile.toAbsolutePath() + "; no chart: " + ex);
        }
    }

    /**
     * Fresh client instances for the waiting scenario: a distlock client keeps a wake channel subscribed for 30 s
     * after its last waiter on the name left (for the next contention there), so the contention runs' clients send
     * their UNSUBSCRIBEs during the waiting windows, which would count them as the waiters' cost. Closed clients send
     * none.
     */
    private void reopen(Map<LockSubject, ClientPool> pools) throws InterruptedException {
        for (LockSubject subject : LockSubject.all()) {
            progress("reopening " + this.settings.poolSize() + " " + subject.label() + " client instances");
            pools.remove(subject).close();
            pools.put(subject, ClientPool.open(subject, this.uri, this.settings.poolSize()));
        }
    }

    private void contendedAndWaiting(List<ContentionResult> contention, List<WaitingResult> waiting,
            List<HandoffBreakdown.Result> breakdown) throws InterruptedException {
        Map<LockSubject, ClientPool> pools = new LinkedHashMap<>();
        try {
            for (LockSubject subject : LockSubject.all()) {
                progress("opening " + this.settings.poolSize() + " " + subject.label() + " client instances");
                pools.put(subject, ClientPool.open(subject, this.uri, this.settings.poolSize()));
            }
            warmUpCompiler("contention", LockSubject.all(), (subject) -> new ContentionScenario(
                    pools.get(subject).first(Math.min(8, this.settings.poolSize())), this.stats)
                .run(subject.label(), "warmup:contention:" + slug(subject), 0, Duration.ZERO, COMPILER_SLICE));
            // Subjects alternate inside each configuration, so a change in machine load hits all of them alike.
            for (int section : this.settings.only().equals("breakdown") ? List.<Integer>of()
                    : this.settings.sectionsMillis()) {
                for (int clients : this.settings.clientCounts()) {
                    for (LockSubject subject : LockSubject.all()) {
                        String key = "contention:" + slug(subject) + ":n" + clients + ":s" + section;
                        ContentionResult result = new ContentionScenario(pools.get(subject).first(clients), this.stats)
                            .run(subject.label(), key, section, this.settings.warmup(), this.settings.measure());
                        progress(String.format(Locale.ROOT,
                                "contention %2d clients %d ms %-18s %,8.0f grants/s %6.1f cmds/grant CPU/grant %5.1f us "
                                        + "Redis %5.1f us client Jain %.2f",
                                clients, section, subject.label(), result.grantsPerSecond(),
                                result.commandsPerGrant(), result.redisCpuPerGrant(), result.clientCpuPerGrant(),
                                result.jain()));
                        contention.add(result);
                    }
                }
            }
            if (!this.settings.only().equals("breakdown")) {
                reopen(pools);
            }
            for (LockSubject subject : this.settings.only().equals("breakdown") ? List.<LockSubject>of()
                    : LockSubject.all()) {
                WaitingResult result = new WaitingScenario(
                        pools.get(subject).first(this.settings.waiters() + 1), this.stats)
                    .run(subject.label(), "waiting:" + slug(subject), this.settings.settle(), this.settings.blocked());
                progress(String.format(Locale.ROOT, "waiting %d %-18s %,8.0f cmds/s, all through in %.1f ms",
                        result.waiters(), subject.label(), result.commandsPerSecond(), result.allThroughMillis()));
                waiting.add(result);
                // Each distlock client that handed the lock over looks at the key again an offer time later (an
                // EXISTS, and a pass of the release script once the key is gone): let that pass before the next
                // subject's window, which would count it.
                Thread.sleep(AFTER_HANDOFFS.toMillis());
            }
            progress("opening 2 " + HandoffFloorLock.SUBJECT.label() + " client instances");
            pools.put(HandoffFloorLock.SUBJECT, ClientPool.open(HandoffFloorLock.SUBJECT, this.uri, 2));
            breakdown.addAll(breakdown(pools));
        }
        finally {
            progress("closing client instances");
            pools.values().forEach(ClientPool::close);
        }
    }

    /**
     * The handoff breakdown of the baseline, the handoff floor and the reentrant lock, in alternating rounds (the
     * contention windows split in {@link #BREAKDOWN_ROUNDS}), so that a change in machine load hits them alike.
     */
    private List<HandoffBreakdown.Result> breakdown(Map<LockSubject, ClientPool> pools) throws InterruptedException {
        List<LockSubject> subjects = List.of(PollingLettuceLock.SUBJECT, HandoffFloorLock.SUBJECT,
                DistlockClient.REENTRANT);
        int rounds = this.settings.quick() ? 1 : BREAKDOWN_ROUNDS;
        Duration warmup = this.settings.warmup().dividedBy(rounds);
        Duration measure = this.settings.measure().dividedBy(rounds);
        Map<LockSubject, HandoffBreakdown.Samples> totals = new LinkedHashMap<>();
        for (int round = 0; round < rounds; round++) {
            for (LockSubject subject : subjects) {
                HandoffBreakdown.Samples samples = new HandoffBreakdown(this.uri).run(pools.get(subject).first(2),
                        "breakdown:" + slug(subject), warmup, measure);
                totals.merge(subject, samples, HandoffBreakdown.Samples::plus);
            }
        }
        List<HandoffBreakdown.Result> results = new ArrayList<>();
        for (LockSubject subject : subjects) {
            HandoffBreakdown.Result result = totals.get(subject).result(subject.label());
            progress(String.format(Locale.ROOT, "breakdown %-18s release call %.0f us, release -> next %.0f us",
                    subject.label(), result.releaseCallP50(), result.releaseToNextP50()));
            results.add(result);
        }
        return results;
    }

    private List<UncontendedResult> uncontended() throws InterruptedException {
        List<LockSubject> subjects = List.of(PollingLettuceLock.SUBJECT, ScriptFloorLock.SUBJECT,
                DistlockClient.REENTRANT);
        Map<LockSubject, LockClient> shared = new LinkedHashMap<>();
        List<UncontendedResult> results = new ArrayList<>();
        try {
            for (LockSubject subject : subjects) {
                shared.put(subject, subject.open(this.uri));
            }
            warmUpCompiler("uncontended", subjects, (subject) -> new UncontendedScenario(shared.get(subject),
                    this.stats).run("warmup:" + slug(subject) + ":", 4, Duration.ZERO, COMPILER_SLICE));
            for (int threads : this.settings.threadCounts()) {
                Map<LockSubject, UncontendedScenario.Round> totals = new LinkedHashMap<>();
                for (int round = 0; round < this.settings.uncontendedRounds(); round++) {
                    for (LockSubject subject : subjects) {
                        UncontendedScenario.Round measured = new UncontendedScenario(shared.get(subject), this.stats)
                            .run("uncontended:" + slug(subject) + ":t" + threads + ":", threads,
                                    this.settings.uncontendedWarmup(), this.settings.uncontendedMeasure());
                        totals.merge(subject, measured, UncontendedScenario.Round::plus);
                    }
                }
                for (LockSubject subject : subjects) {
                    UncontendedResult result = totals.get(subject).result(subject.label(), threads);
                    progress(String.format(Locale.ROOT, "uncontended %2d threads %-18s %,8.0f cycles/s %.1f cmds/cycle",
                            threads, subject.label(), result.opsPerSecond(), result.commandsPerCycle()));
                    results.add(result);
                }
            }
        }
        finally {
            shared.values().forEach(LockClient::close);
        }
        return results;
    }

    /**
     * Runs every subject's loop of a scenario, unmeasured, until the JIT compiler has settled (or for at most
     * {@link BenchmarkSettings#compilerWarmupLimit()}). The measured windows are short, and the library has far more
     * code to compile than the baseline: compilation left running into them counts as the library's client CPU and,
     * on a machine with few cores, takes a core from the clients and Redis (measured: the C2 thread alone spent 30-40
     * us per uncontended distlock cycle 3 to 13 s into a 1-thread loop, 1.5 us after 30 s, and 200-260 us per grant 5
     * to 15 s into a 2-client handoff loop).
     */
    private void warmUpCompiler(String scenario, List<LockSubject> subjects, Slice slice) throws InterruptedException {
        CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        if (compiler == null || !compiler.isCompilationTimeMonitoringSupported()) {
            return;
        }
        long started = System.nanoTime();
        long limit = this.settings.compilerWarmupLimit().toNanos();
        long compiledBefore = compiler.getTotalCompilationTime();
        int slices = 0;
        while (System.nanoTime() - started < limit) {
            for (LockSubject subject : subjects) {
                slice.run(subject);
            }
            slices++;
            long compiled = compiler.getTotalCompilationTime();
            // Settled: less than 1 % of the slices' wall time went to compiling.
            if (slices >= 2 && (compiled - compiledBefore) * 100 < COMPILER_SLICE.toMillis() * subjects.size()) {
                break;
            }
            compiledBefore = compiled;
        }
        progress(String.format(Locale.ROOT, "%s warm-up until the JIT settled: %.1f s", scenario,
                (System.nanoTime() - started) / 1e9));
    }

    /** One unmeasured {@link #COMPILER_SLICE} of a subject's loop. */
    @FunctionalInterface
    private interface Slice {

        void run(LockSubject subject) throws InterruptedException;
    }

    private static String slug(LockSubject subject) {
        return subject.label().replace(' ', '-');
    }

    private static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2] + " (1, 5, 15 min)";
        }
        catch (IOException | RuntimeException ex) {
            return "unknown";
        }
    }

    private static void progress(String message) {
        System.err.println("[contention] " + message);
    }
}
