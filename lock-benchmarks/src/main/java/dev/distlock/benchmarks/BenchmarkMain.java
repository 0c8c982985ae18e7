package dev.distlock.benchmarks;

import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptionException;

/**
 * Runs the benchmarks with settings sized for a 2-core machine (one fork, 3 warm-up and 5 measurement iterations of
 * 2 s). JMH command-line arguments override them, e.g. a benchmark name pattern such as {@code Handoff}.
 */
public final class BenchmarkMain {

    private BenchmarkMain() {
    }

    public static void main(String[] args) throws RunnerException, CommandLineOptionException {
        CommandLineOptions commandLine = new CommandLineOptions(args);
        new Runner(new OptionsBuilder()
            .include("dev.distlock.benchmarks")
            .forks(1)
            .warmupIterations(3)
            .warmupTime(org.openjdk.jmh.runner.options.TimeValue.seconds(2))
            .measurementIterations(5)
            .measurementTime(org.openjdk.jmh.runner.options.TimeValue.seconds(2))
            .parent(commandLine)
            .build()).run();
    }
}
