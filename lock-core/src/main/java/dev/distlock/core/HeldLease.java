package dev.distlock.core;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * A snapshot of one lease this client holds, as its watchdog sees it (see {@link RedisLockClient#heldLeases()}): for
 * dashboards, health checks and logs. Reentrant acquisitions of one hold are one lease here.
 *
 * @param name the lock name
 * @param kind {@code reentrant}, {@code fair}, {@code read}, {@code write}, {@code redlock} or
 * {@code semaphore} (one lease per permit); a multi-lock shows
 * one lease per name
 * @param owner the owner token on Redis
 * @param fencingToken the hold's fencing token (0 when fencing is off)
 * @param heldFor how long ago it was acquired
 * @param remainingValidity how long it stays valid on the client's clock without another renewal
 * @param leaseTime the lease per grant or renewal
 * @param watchdogRenewed whether the watchdog renews it (no explicit lease was given)
 * @param renewals successful watchdog renewals so far
 * @param sinceRenewal time since the acquire or the last successful renewal was sent
 * @param ownerThread name of the thread holding it for reentrancy, or null for asynchronous acquisitions
 */
public record HeldLease(String name, String kind, String owner, long fencingToken, Duration heldFor,
        Duration remainingValidity, Duration leaseTime, boolean watchdogRenewed, long renewals, Duration sinceRenewal,
        @Nullable String ownerThread) {
}
