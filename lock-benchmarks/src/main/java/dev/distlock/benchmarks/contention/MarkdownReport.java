package dev.distlock.benchmarks.contention;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Renders a {@link BenchmarkReport} as markdown: one table per scenario with ratios against the baseline of the same
 * run, the fair-versus-reentrant handoff comparison, and the issue 10 targets with whether this run met them.
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
        targets();
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
                + "whole second.");
        line("");
        line("| clients | section | lock | grants/s | x | cmds/grant | Jain | re-won | overtakes | handoff p50 | "
                + "handoff p99 | release call p50 | release call -> next holder p50 | acquire p50 | acquire p99 | "
                + "starved | longest gap | failures |");
        line("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (ContentionResult r : this.report.contention()) {
            Optional<ContentionResult> base = this.report.contention(BASELINE, r.clients(), r.sectionMillis());
            line("| %d | %d ms | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d | %s | %d |"
                .formatted(r.clients(), r.sectionMillis(), r.lock(), number(r.grantsPerSecond()),
                    ratio(r.grantsPerSecond(), base.map(ContentionResult::grantsPerSecond)),
                    decimal(r.commandsPerGrant()), fixed(r.jain(), 2), percent(r.rewonShare()),
                    percent(r.overtakeShare()), micros(r.handoffP50()), micros(r.handoffP99()),
                    micros(r.releaseP50()), micros(r.releaseToNextP50()),
                    micros(r.acquireP50()), micros(r.acquireP99()), r.starvedClients(),
                    millis(r.longestGapMillis()), r.failures()));
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
                        ratio(fair.handoffP50(), Optional.of(re.handoffP50())),
                        ratio(fair.handoffP99(), Optional.of(re.handoffP99())),
                        ratio(fair.commandsPerGrant(), Optional.of(re.commandsPerGrant())),
                        ratio(fair.grantsPerSecond(), Optional.of(re.grantsPerSecond())),
                        percent(fair.overtakeShare()))));
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
                    number(r.commandsPerSecond()), ratio(r.commandsPerSecond(), base), millis(r.firstMillis()),
                    millis(r.allGrantedMillis()), millis(r.allThroughMillis()), r.failures()));
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
                    number(r.opsPerSecond()), ratio(r.opsPerSecond(), base),
                    floor.isPresent() ? ratio(r.opsPerSecond(), floor) : "", decimal(r.commandsPerCycle()),
                    micros(r.clientCpuMicros()), micros(r.redisCpuMicros()), r.failures()));
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
                + "time less its commands': loading arguments, the Lua interpreter and reply conversion (not shown for the "
                + "baseline, whose `SET` runs outside its script).");
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
                else {
                    inner += cost.usecPerCycle();
                }
                line("| %s | %s | %s | %s | %s |".formatted(r.lock(), entry.getKey(), decimal(cost.callsPerCycle()),
                        decimal(cost.usecPerCall()), decimal(cost.usecPerCycle())));
            }
            // Every command of distlock and of the script floor runs inside their scripts; the baseline's SET does not.
            if (scripts > 0 && !r.lock().equals(BASELINE)) {
                line("| %s | *script overhead* | | | %s |".formatted(r.lock(), decimal(Math.max(0, scripts - inner))));
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
        line("Medians over the handoffs of the window. A tap (a pub/sub connection of its own, pattern-subscribed to "
                + "the key's wake channels) notes when each handoff announcement reaches a client process: *release -> "
                + "heard* is request, script, PUBLISH and the subscriber's socket; *heard -> running* is decoding, "
                + "completing the grant and waking the waiting thread. The baseline publishes nothing.");
        line("");
        line("| lock | handoffs | release call | release -> heard | heard -> running | release -> next holder running |");
        line("|---|---|---|---|---|---|");
        for (HandoffBreakdown.Result r : this.report.breakdown()) {
            line("| %s | %d | %s | %s | %s | %s |".formatted(r.lock(), r.handoffs(), micros(r.releaseCallP50()),
                    micros(r.releaseToHeardP50()), micros(r.heardToRunningP50()), micros(r.releaseToNextP50())));
        }
        line("");
    }

    private void targets() {
        line("### Targets of issues 10 and 18 (reentrant lock unless named)");
        line("");
        line("| target | this run | met |");
        line("|---|---|---|");
        for (int section : List.of(0, 1)) {
            Optional<ContentionResult> re = this.report.contention(REENTRANT, 32, section);
            Optional<ContentionResult> base = this.report.contention(BASELINE, 32, section);
            if (re.isEmpty() || base.isEmpty()) {
                continue;
            }
            ContentionResult r = re.get();
            double x = r.grantsPerSecond() / base.get().grantsPerSecond();
            double wantX = section == 0 ? 1.5 : 1.3;
            target("32 clients, %d ms: grants/s >= %.1fx baseline".formatted(section, wantX),
                    fixed(x, 2) + "x", x >= wantX);
            if (section == 0) {
                target("32 clients, 0 ms: <= 8 Redis commands per grant", decimal(r.commandsPerGrant()),
                        r.commandsPerGrant() <= 8);
            }
            target("32 clients, %d ms: Jain >= 0.95".formatted(section), fixed(r.jain(), 2), r.jain() >= 0.95);
            if (section == 1) {
                target("32 clients, 1 ms: releasing client re-wins <= 25 %", percent(r.rewonShare()),
                        r.rewonShare() <= 0.25);
                target("32 clients, 1 ms: no client starved (a grant every second)",
                        r.starvedClients() + " starved", r.starvedClients() == 0);
            }
        }
        this.report.waiting(REENTRANT).ifPresent(w -> {
            target("32 waiting 5 s: <= 20 Redis commands/s", number(w.commandsPerSecond()),
                    w.commandsPerSecond() <= 20);
            target("32 waiting: all through within 50 ms of the release", millis(w.allThroughMillis()),
                    w.allThroughMillis() <= 50);
        });
        for (UncontendedResult r : this.report.uncontended()) {
            if (r.lock().equals(REENTRANT)) {
                this.report.uncontended(BASELINE, r.threads()).ifPresent(base -> {
                    double x = r.opsPerSecond() / base.opsPerSecond();
                    target("uncontended, %d threads: >= 0.9x baseline".formatted(r.threads()), fixed(x, 2) + "x",
                            x >= 0.9);
                });
            }
        }
        issue18Targets();
        for (ContentionResult fair : this.report.contention()) {
            if (fair.lock().equals(FAIR) && fair.sectionMillis() == 1) {
                this.report.contention(REENTRANT, fair.clients(), 1).ifPresent(re -> {
                    String what = "fair, %d clients, 1 ms: handoff p50 <= 1.2x reentrant".formatted(fair.clients());
                    if (re.handoffP50() > 0) {
                        double x = fair.handoffP50() / re.handoffP50();
                        target(what, fixed(x, 2) + "x", x <= 1.2);
                    }
                    else {
                        target(what, "reentrant p50 " + micros(re.handoffP50()) + ": no ratio", false);
                    }
                    target("fair, %d clients, 1 ms: FIFO (no overtakes)".formatted(fair.clients()),
                            percent(fair.overtakeShare()), fair.overtakeShare() == 0);
                });
            }
        }
        line("");
    }

    /** Issue 18's: Redis and client CPU per uncontended cycle, commands per contended grant, the 2-client chain. */
    private void issue18Targets() {
        for (UncontendedResult r : this.report.uncontended()) {
            if (!r.lock().equals(REENTRANT)) {
                continue;
            }
            this.report.uncontended(BASELINE, r.threads()).ifPresent(base -> {
                double redis = r.redisCpuMicros() / base.redisCpuMicros();
                double client = r.clientCpuMicros() / base.clientCpuMicros();
                if (r.threads() >= 16) {
                    target("uncontended, %d threads: Redis CPU per cycle <= 1.3x baseline".formatted(r.threads()),
                            fixed(redis, 2) + "x", redis <= 1.3);
                }
                target("uncontended, %d threads: client CPU per cycle <= 1.15x baseline".formatted(r.threads()),
                        fixed(client, 2) + "x", client <= 1.15);
            });
        }
        this.report.contention(REENTRANT, 32, 0).ifPresent(r -> target(
                "32 clients, 0 ms: <= 10 Redis commands per grant (issue 18)", decimal(r.commandsPerGrant()),
                r.commandsPerGrant() <= 10));
        Optional<ContentionResult> two = this.report.contention(REENTRANT, 2, 1);
        Optional<ContentionResult> twoBase = this.report.contention(BASELINE, 2, 1);
        if (two.isPresent() && twoBase.isPresent()) {
            double release = two.get().releaseP50() / twoBase.get().releaseP50();
            double chain = two.get().releaseToNextP50() / twoBase.get().releaseToNextP50();
            target("2 clients, 1 ms: release call p50 <= 1.3x baseline's", fixed(release, 2) + "x", release <= 1.3);
            target("2 clients, 1 ms: release call -> next holder p50 <= 1.15x baseline's", fixed(chain, 2) + "x",
                    chain <= 1.15);
        }
    }

    private void target(String what, String measured, boolean met) {
        line("| " + what + " | " + measured + " | " + (met ? "yes" : "**no**") + " |");
    }

    private void line(String text) {
        this.out.append(text).append('\n');
    }

    private static String ratio(double value, Optional<Double> base) {
        // a ratio to a value that is not positive (a slightly negative handoff latency) says nothing
        return base.filter(b -> b > 0).map(b -> fixed(value / b, 2) + "x").orElse("-");
    }

    private static String number(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%,.0f", value);
    }

    private static String decimal(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, value < 100 ? "%.1f" : "%,.0f", value);
    }

    private static String fixed(double value, int digits) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%." + digits + "f", value);
    }

    private static String percent(double share) {
        if (Double.isNaN(share)) {
            return "-";
        }
        return String.format(Locale.ROOT, share > 0 && share < 0.1 ? "%.1f %%" : "%.0f %%", share * 100);
    }

    private static String micros(double micros) {
        if (Double.isNaN(micros)) {
            return "-";
        }
        return Math.abs(micros) >= 1000 ? millis(micros / 1000) : String.format(Locale.ROOT, "%.0f us", micros);
    }

    private static String millis(double millis) {
        if (Double.isNaN(millis)) {
            return "-";
        }
        return String.format(Locale.ROOT, Math.abs(millis) >= 100 ? "%.0f ms" : "%.1f ms", millis);
    }
}
