package dev.distlock.benchmarks.contention;

import java.util.List;
import java.util.Optional;

/**
 * Everything one harness run measured, with the environment it ran in.
 *
 * @param environment one line per fact: date, machine, JVM, Redis version, load average before and after
 * @param quick whether this was the short smoke run (numbers not meant to be quoted)
 * @param contention every contention run, baseline included
 * @param waiting the waiting scenario per lock
 * @param uncontended every uncontended run, baseline included
 * @param breakdown where the time of a 2-client handoff goes, per lock
 */
record BenchmarkReport(List<String> environment, boolean quick, List<ContentionResult> contention,
        List<WaitingResult> waiting, List<UncontendedResult> uncontended, List<HandoffBreakdown.Result> breakdown) {

    Optional<ContentionResult> contention(String lock, int clients, int sectionMillis) {
        return this.contention.stream()
            .filter(r -> r.lock().equals(lock) && r.clients() == clients && r.sectionMillis() == sectionMillis)
            .findFirst();
    }

    Optional<WaitingResult> waiting(String lock) {
        return this.waiting.stream().filter(r -> r.lock().equals(lock)).findFirst();
    }

    Optional<UncontendedResult> uncontended(String lock, int threads) {
        return this.uncontended.stream().filter(r -> r.lock().equals(lock) && r.threads() == threads).findFirst();
    }

    Optional<HandoffBreakdown.Result> breakdown(String lock) {
        return this.breakdown.stream().filter(r -> r.lock().equals(lock)).findFirst();
    }
}
