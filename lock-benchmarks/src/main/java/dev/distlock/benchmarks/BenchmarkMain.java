package dev.distlock.benchmarks;

import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the JMH benchmarks with settings sized for a 2-core machine (one fork, 3 warm-up and 5 measurement iterations of
 * 2 s). JMH command-line arguments override them, e.g. {@code Handoff -wi 1 -i 2} runs only the handoff benchmark
 * with one warm-up and two measurement iterations.
 */
public final class BenchmarkMain {

    private BenchmarkMain() {
    }

    public static void main(String[] args) throws RunnerException, CommandLineOptionException {
        CommandLineOptions commandLine = new CommandLineOptions(args);
        // JMH prefers a builder's own settings over its parent's and unions the includes, so set only the defaults
        // the command line leaves open
        OptionsBuilder options = new OptionsBuilder();
        if (commandLine.getIncludes().isEmpty()) {
            options.include("dev.distlock.benchmarks");
        }
        if (!commandLine.getForkCount().hasValue()) {
            options.forks(1);
        }
        if (!commandLine.getWarmupIterations().hasValue()) {
            options.warmupIterations(3);
        }
        if (!commandLine.getWarmupTime().hasValue()) {
            options.warmupTime(TimeValue.seconds(2));
        }
        if (!commandLine.getMeasurementIterations().hasValue()) {
            options.measurementIterations(5);
        }
        if (!commandLine.getMeasurementTime().hasValue()) {
            options.measurementTime(TimeValue.seconds(2));
        }
        new Runner(options.parent(commandLine).build()).run();
    }
}
