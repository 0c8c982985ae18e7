/**
 * A stock-reservation web application that shows the distributed-lock starter doing real work: reservations
 * serialized by {@code @DistributedLock} and {@code LockTemplate}, writes fenced by the lease's token in Redis, and
 * an endpoint that shows what happens to the same code without the lock, and a report generator that only the leader
 * of the instances runs ({@link dev.distlock.sample.ReportGenerator}).
 */
@NullMarked
package dev.distlock.sample;

import org.jspecify.annotations.NullMarked;
