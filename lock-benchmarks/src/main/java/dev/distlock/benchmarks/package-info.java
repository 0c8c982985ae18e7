/**
 * JMH benchmarks of the lock client, run on purpose with {@code ./mvnw -pl lock-benchmarks -am -DskipTests package
 * -Dbenchmark=jmh}; never part of {@code verify}. Results and how they were taken are in {@code docs/benchmarks.md}.
 */
@NullMarked
package dev.distlock.benchmarks;

import org.jspecify.annotations.NullMarked;
