/**
 * Reactive (Project Reactor) locking on the non-blocking acquisition path:
 * {@link dev.distlock.core.reactive.ReactiveLock} acquires a lock as a {@code Mono<LockLease>} and releases it as a
 * {@code Mono<Void>};
 * {@link dev.distlock.core.reactive.ReactiveLockTemplate} runs a {@code Mono} or {@code Flux} while holding a lock and
 * releases it on complete, error and cancel. Ownership belongs to the lease, not to a thread; the current lease travels
 * in the Reactor {@code Context}.
 *
 * <p>Needs {@code io.projectreactor:reactor-core} on the classpath (an optional dependency of lock-core).
 */
@NullMarked
package dev.distlock.core.reactive;

import org.jspecify.annotations.NullMarked;
