package dev.distlock.benchmarks.contention;

import java.util.Map;
import java.util.Optional;

/**
 * Renders a {@link BenchmarkReport} as markdown: one table per scenario with ratios against the baseline of the same
 * run, the fair-versus-reentrant handoff comparison, then the {@link TargetsTable}; {@link Cells} writes the figures.
 */
final class MarkdownReport {

    static final String BASELINE = PollingLettuceLock.SUBJECT.label();

    static final String REENTRANT = DistlockClient.REENTRANT.label();

    static final String FAIR = DistlockClient.FAIR.label();

    static final String FLOOR = ScriptFloorLock.SUBJECT.label();

    private final BenchmarkReport report;

    private final StringBuilder out = new StringBuilder();

    private MarkdownReport(BenchmarkReport report) {
        this.report = report;
    }

    static String render(BenchmarkReport report) {
        return new MarkdownReport(report).render();
    }

    private String render() {
        line("## Contention harness results" + (this.report.quick() ? " (--quick smoke run: do not quote)" : ""));
        line("");
        this.report.environment().forEach(fact -> line("- " + fact));
        line("");
        if (!this.report.contention().isEmpty()) {
            contention();
            fairVersusReentrant();
            waiting();
        }
        breakdown();
        if (!this.report.uncontended().isEmpty()) {
            uncontended();
        }
        TargetsTable.render(this.report, this::line);
        return this.out.toString();
    }

    private void contention() {
        line("### Contention: N client instances on one key");
        line("");
        line("Each client instance has its own Lettuce client and connections (like its own process) and one thread "
                + "that acquires, holds for the critical section, releases and tries again at once. x = ratio to the "
                + "baseline in the same row group. Handoff = release return of one holder to acquire return of the "
                + "next, different, holder. Overtakes = grants to a client whose acquire started over 1 ms after "
                + "that of another client still waiting. Acquire = duration of acquire calls, counting a wait still "
                + "unfinished at the end of the window at its length so far. Starved = clients with no grant in some "
                + "whole second. CPU per grant: redis-server's (user + system, from INFO cpu) and the harness JVM's "
                + "(every client instance) over the window.");
        line("");
        line("| clients | section | lock | grants/s | x | cmds/grant | Redis CPU/grant | client CPU/grant | Jain | re-won | "
                + "overtakes | handoff p50 | handoff p99 | release call p50 | release call -> next holder p50 | "
                + "acquire p50 | acquire p99 | starved | longest gap | failures |");
        line("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (ContentionResult r : this.report.contention()) {
            Optional<ContentionResult> base = this.report.contention(BASELINE, r.clients(), r.sectionMillis());
            line("| %d | %d ms | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d | %s | %d |"
                .formatted(r.clients(), r.sectionMillis(), r.lock(), Cells.number(r.grantsPerSecond()),
                    Cells.ratio(r.grantsPerSecond(), base.map(ContentionResult::grantsPerSecond)),
                    Cells.decimal(r.commandsPerGrant()), Cells.micros(r.redisCpuPerGrant()),
                    Cells.micros(r.clientCpuPerGrant()), Cells.fixed(r.jain(), 2),
                    Cells.percent(r.rewonShare()),
                    Cells.percent(r.overtakeShare()), Cells.micros(r.handoffP50()), Cells.micros(r.handoffP99()),
                    Cells.micros(r.releaseP50()), Cells.micros(r.releaseToNextP50()),
                    Cells.micros(r.acquireP50()), Cells.micros(r.acquireP99()), r.starvedClients(),
                    Cells.millis(r.longestGapMillis()), r.failures()));
        }
        line("");
    }

    private void fairVersusReentrant() {
        line("### Fair lock against reentrant lock");
        line("");
        line("Ratios fair / reentrant from the contention runs above (1.0 = same cost; above 1 = the fair lock is "
                + "dearer).");
        line("");
        line("| clients | section | handoff p50 | handoff p99 | cmds/grant | grants/s | fair overtakes |");
        line("|---|---|---|---|---|---|---|");
        for (ContentionResult fair : this.report.contention()) {
            if (!fair.lock().equals(FAIR)) {
                continue;
            }
            this.report.contention(REENTRANT, fair.clients(), fair.sectionMillis()).ifPresent(re ->
                line("| %d | %d ms | %s | %s | %s | %s | %s |".formatted(fair.clients(), fair.sectionMillis(),
                        Cells.ratio(fair.handoffP50(), Optional.of(re.handoffP50())),
                        Cells.ratio(fair.handoffP99(), Optional.of(re.handoffP99())),
                        Cells.ratio(fair.commandsPerGrant(), Optional.of(re.commandsPerGrant())),
                        Cells.ratio(fair.grantsPerSecond(), Optional.of(re.grantsPerSecond())),
                        Cells.percent(fair.overtakeShare()))));
        }
        line("");
    }

    private void waiting() {
        line("### Waiting: client instances blocked on a held lock");
        line("");
        line("Redis commands per second while all wait, then the time from the holder's release return to the first "
                + "waiter's acquire return, to the last one's acquire return, and to the last one's own release.");
        line("");
        line("| waiters | lock | cmds/s while waiting | x | first granted | all granted | all through | failures |");
        line("|---|---|---|---|---|---|---|---|");
        Optional<Double> base = this.report.waiting(BASELINE).map(WaitingResult::commandsPerSecond);
        for (WaitingResult r : this.report.waiting()) {
            line("| %d | %s | %s | %s | %s | %s | %s | %d |".formatted(r.waiters(), r.lock(),
                    Cells.number(r.commandsPerSecond()), Cells.ratio(r.commandsPerSecond(), base),
                    Cells.millis(r.firstMillis()),
                    Cells.millis(r.allGrantedMillis()), Cells.millis(r.allThroughMillis()), r.failures()));
        }
        line("");
    }

    private void uncontended() {
        line("### Uncontended: one shared client instance, each thread its own key");
        line("");
        line("Acquire (no wait) + release in a loop. CPU per cycle: the harness JVM (client) and redis-server. "
                + "*" + FLOOR + "*: the Redis commands distlock runs when nobody waits, sent by a bare client (see "
                + "`ScriptFloorLock`); its x is what the Redis side of the guarantees costs, and *vs floor* is what "
                + "distlock's client side costs on top.");
        line("");
        line("| threads | lock | cycles/s | x | vs floor | cmds/cycle | client CPU/cycle | Redis CPU/cycle "
                + "| failures |");
        line("|---|---|---|---|---|---|---|---|---|");
        for (UncontendedResult r : this.report.uncontended()) {
            Optional<Double> base = this.report.uncontended(BASELINE, r.threads())
                .map(UncontendedResult::opsPerSecond);
            Optional<Double> floor = r.lock().equals(REENTRANT) ? this.report.uncontended(FLOOR, r.threads())
                .map(UncontendedResult::opsPerSecond) : Optional.empty();
            line("| %d | %s | %s | %s | %s | %s | %s | %s | %d |".formatted(r.threads(), r.lock(),
                    Cells.number(r.opsPerSecond()), Cells.ratio(r.opsPerSecond(), base),
                    floor.isPresent() ? Cells.ratio(r.opsPerSecond(), floor) : "", Cells.decimal(r.commandsPerCycle()),
                    Cells.micros(r.clientCpuMicros()), Cells.micros(r.redisCpuMicros()), r.failures()));
        }
        line("");
        perCommand();
    }

    /** Where Redis's time goes in the uncontended cycle, at the largest thread count, as Redis itself accounts it. */
    private void perCommand() {
        int threads = this.report.uncontended().stream().mapToInt(UncontendedResult::threads).max().orElse(0);
        line("#### Redis time per uncontended cycle by command (%d threads)".formatted(threads));
        line("");
        line("From `INFO commandstats` (`usec`, `calls`): the time of a script call (`evalsha`) includes the commands "
                + "it runs, which are also listed under their own names, so *script overhead* is the script call's "
                + "time less its commands': loading arguments, the Lua interpreter and reply conversion. Every lock's "
                + "acquire here is a plain `SET NX PX`, outside any script; the release's commands run inside one "
                + "(or are one plain `DELIFEQ` / `DELEX` where the server has it).");
        line("");
        line("| lock | command | calls/cycle | us/call | us/cycle |");
        line("|---|---|---|---|---|");
        for (UncontendedResult r : this.report.uncontended()) {
            if (r.threads() != threads) {
                continue;
            }
            double inner = 0;
            double scripts = 0;
            for (Map.Entry<String, UncontendedResult.CommandCost> entry : r.perCommand().entrySet()) {
                UncontendedResult.CommandCost cost = entry.getValue();
                boolean script = entry.getKey().startsWith("eval");
                if (script) {
                    scripts += cost.usecPerCycle();
                }
                else if (!entry.getKey().equals("set")) {
                    inner += cost.usecPerCycle();
                }
                line("| %s | %s | %s | %s | %s |".formatted(r.lock(), entry.getKey(),
                        Cells.decimal(cost.callsPerCycle()),
                        Cells.decimal(cost.usecPerCall()), Cells.decimal(cost.usecPerCycle())));
            }
            // The acquire's SET is a plain command of every lock; the release's commands run inside its script.
            if (scripts > 0) {
                line("| %s | *script overhead* | | | %s |".formatted(r.lock(),
                        Cells.decimal(Math.max(0, scripts - inner))));
            }
        }
        line("");
    }

    private void breakdown() {
        if (this.report.breakdown().isEmpty()) {
            return;
        }
        line("### Where a handoff's time goes: 2 client instances, 1 ms section");
        line("");
        line("Medians over the handoffs of the windows (the subjects alternate in rounds). A tap (a pub/sub "
                + "connection of its own, pattern-subscribed to the key's wake channels) notes when each handoff "
                + "announcement reaches a client process: *release -> "
                + "heard* is request, script, PUBLISH and the subscriber's socket; *heard -> running* is decoding, "
                + "completing the grant and waking the waiting thread. The baseline publishes nothing. The handoff "
                + "floor is a bare Lettuce client running distlock's own release script (`unlock.lua`) and a one-line "
                + "take-or-queue script, with no library code: its ratio to the baseline is what handing over in the "
                + "release costs on this machine, distlock's ratio to it what distlock's client adds.");
        line("");
        line("| lock | handoffs | release call | x baseline | release -> heard | heard -> running "
                + "| release -> next holder running | x baseline |");
        line("|---|---|---|---|---|---|---|---|");
        Optional<HandoffBreakdown.Result> base = this.report.breakdown(BASELINE);
        Optional<Double> baseRelease = base.map(HandoffBreakdown.Result::releaseCallP50);
        Optional<Double> baseNext = base.map(HandoffBreakdown.Result::releaseToNextP50);
        for (HandoffBreakdown.Result r : this.report.breakdown()) {
            line("| %s | %d | %s | %s | %s | %s | %s | %s |".formatted(r.lock(), r.handoffs(),
                    Cells.micros(r.releaseCallP50()), Cells.ratio(r.releaseCallP50(), baseRelease),
                    Cells.micros(r.releaseToHeardP50()), Cells.micros(r.heardToRunningP50()),
                    Cells.micros(r.releaseToNextP50()), Cells.ratio(r.releaseToNextP50(), baseNext)));
        }
        line("");
    }

    private void line(String text) {
        this.out.append(text).append('\n');
    }
}
