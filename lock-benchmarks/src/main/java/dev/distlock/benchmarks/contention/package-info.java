/**
 * The contention harness: many client instances on one lock key, waiters parked on a held lock, and uncontended
 * acquire + release, each measured against a hand-written polling Lettuce lock in the same run, with Redis commands
 * counted by {@code INFO commandstats}. Run on purpose with
 * {@link dev.distlock.benchmarks.contention.ContentionBenchmark} (see {@code docs/benchmarks.md}); never part of
 * {@code verify}.
 */
@NullMarked
package dev.distlock.benchmarks.contention;

import org.jspecify.annotations.NullMarked;
