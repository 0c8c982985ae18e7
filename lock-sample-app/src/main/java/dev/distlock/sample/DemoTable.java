package dev.distlock.sample;

import java.util.Locale;

/** Formats a {@link DemoReport} as the plain-text table the demo logs. */
final class DemoTable {

    private static final String ROW = "%-9s %8s %6s %9s %8s %8s   %-36s %-8s %6s %7s%n";

    private DemoTable() {
    }

    static String format(DemoReport report) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT,
                "Oversell demo on item '%s': %d concurrent buyers per path, stock %d, %d ms of work between read "
                        + "and write%n",
                report.sku(), report.buyers(), report.initialStock(), report.workDelayMs()));
        out.append(String.format(Locale.ROOT, ROW, "path", "reserved", "sold", "remaining", "oversold", "tokens",
                "token range (min..max)", "in order", "stale", "time"));
        row(out, report.locked());
        row(out, report.unlocked());
        DemoReport.PausedHolderReport paused = report.pausedHolder();
        out.append(String.format(Locale.ROOT,
                "Paused holder on '%s' (lease %d ms, pause of %d ms between read and write):%n"
                        + "  token %d read the stock, paused past its lease, then wrote: %s (told lease lost: %s)%n"
                        + "  token %d took the lock during the pause: %s%n"
                        + "  result: sold %d, remaining %d, stale writes rejected %d",
                paused.sku(), paused.leaseMs(), paused.pauseMs(), paused.pausedHolderToken(),
                paused.pausedHolderOutcome(), paused.pausedHolderLeaseLost(), paused.newerHolderToken(),
                paused.newerHolderOutcome(), paused.sold(), paused.remainingStock(), paused.staleWritesRejected()));
        if (paused.pausedHolderOutcome() == Reservation.Outcome.REJECTED_STALE_TOKEN) {
            out.append(String.format(Locale.ROOT, "%n  (without the token check the paused write would have "
                    + "recorded a second sale against the same unit)"));
        }
        return out.toString();
    }

    private static void row(StringBuilder out, DemoReport.PathReport path) {
        DemoReport.TokenStats tokens = path.fencingTokens();
        out.append(String.format(Locale.ROOT, ROW, path.path(), path.reserved(), path.sold(), path.remainingStock(),
                path.oversold(), (tokens != null) ? tokens.issued() : "-",
                (tokens != null) ? tokens.min() + ".." + tokens.max() : "-",
                (tokens != null) ? (tokens.strictlyIncreasingInCommitOrder() ? "yes" : "NO") : "-",
                (tokens != null) ? path.staleWritesRejected() : "-", path.elapsedMs() + " ms"));
        if (path.failed() > 0) {
            out.append(String.format(Locale.ROOT, "  %d buyers failed, e.g. %s%n", path.failed(),
                    path.failures().get(0)));
        }
    }
}
