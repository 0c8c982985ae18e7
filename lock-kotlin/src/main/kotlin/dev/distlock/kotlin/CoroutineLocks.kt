@file:JvmName("CoroutineLocks")

package dev.distlock.kotlin

import dev.distlock.core.LockLease
import dev.distlock.core.RedisLock
import dev.distlock.core.reactive.ReactiveLockTemplate
import java.time.Duration
import kotlinx.coroutines.Job
import kotlinx.coroutines.currentCoroutineContext
import kotlinx.coroutines.reactive.awaitSingle
import kotlinx.coroutines.reactor.mono

/**
 * Runs [block] holding the lock [name] of this template's client, suspending (never blocking a thread) while the
 * lock is busy, for at most [waitTime]; returns what [block] returns.
 *
 * ```
 * val receipt = reactiveLockTemplate.withLock("order:$id") { lease ->
 *     orders.reserve(id, lease.fencingToken())   // may suspend: the lock stays held
 * }
 * ```
 *
 * The lock belongs to this coroutine, not to a thread: it stays held across suspension points and dispatcher
 * switches, and is released exactly once when [block] returns, throws, or the coroutine is cancelled (a cancel
 * before the grant abandons the acquisition, and a lease granted as the cancel lands is released too). A cancel
 * releases the lock as it reaches the acquisition, without waiting for cleanup that [block] still runs in a
 * `NonCancellable` context.
 *
 * A nested `withLock` of a lock this coroutine already holds (same client, kind and name) reenters it: it runs
 * without acquiring or releasing. Leases travel in the Reactor `Context` (see [ReactiveLockTemplate]), which
 * kotlinx-coroutines-reactor carries through the coroutine context, so reentry follows the coroutine, including
 * into coroutines it starts with the same context.
 *
 * The template's [dev.distlock.core.LostLeasePolicy] applies: `FAIL` throws
 * [dev.distlock.core.LockLostException] after [block], `INTERRUPT` cancels [block] at the moment of loss and throws
 * it, `IGNORE` only logs.
 *
 * @param leaseTime a fixed lease, or null for a watchdog-renewed one
 * @throws dev.distlock.core.LockNotAcquiredException when the lock stayed busy for [waitTime]
 * @throws dev.distlock.core.LockOperationException when Redis failed
 */
suspend fun <T> ReactiveLockTemplate.withLock(
    name: String,
    waitTime: Duration = defaultWaitTime(),
    leaseTime: Duration? = defaultLeaseTime(),
    block: suspend (LockLease) -> T,
): T = withLock(client().getLock(name), waitTime, leaseTime, block)

/**
 * Runs [block] holding [lock] (any kind: reentrant, fair, read, write, multi); see the `withLock(name)` overload
 * for what is promised.
 *
 * @param leaseTime a fixed lease, or null for a watchdog-renewed one
 */
suspend fun <T> ReactiveLockTemplate.withLock(
    lock: RedisLock,
    waitTime: Duration = defaultWaitTime(),
    leaseTime: Duration? = defaultLeaseTime(),
    block: suspend (LockLease) -> T,
): T {
    // The block runs in the caller's context (dispatcher, ReactorContext with the leases it holds, other elements);
    // its Job is the mono's, which the caller's cancel reaches through the subscription.
    val caller = currentCoroutineContext().minusKey(Job)
    val outcome = execute(lock, waitTime, leaseTime) { lease -> mono(caller) { Outcome(block(lease)) } }
    return outcome.awaitSingle().value
}

/** Carries a result that may be null through a `Mono`, which cannot emit null. */
private class Outcome<T>(val value: T)
