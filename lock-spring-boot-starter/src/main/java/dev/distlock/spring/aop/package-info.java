/**
 * The Spring AOP machinery behind {@link dev.distlock.spring.annotation.DistributedLock @DistributedLock}: an
 * infrastructure advisor and method interceptor (no AspectJ needed), the lock types and multi-key locks, SpEL key
 * evaluation and startup validation of every annotated method. The annotation and the other types an application
 * uses are in {@code dev.distlock.spring.annotation}.
 *
 * <p>How it fits together. At startup {@code LockedMethodValidator} asks {@code LockOperationSource} for every
 * annotated method; the source reads the annotation and builds a cached {@code LockOperation}, with
 * {@code KeyExpressionChecker} (parses key expressions and checks their variables and beans), {@code LockDurations}
 * ({@code ${...}} placeholders, wait and lease times) and {@code FallbackMethods} (finds and checks the fallback);
 * each reports a mistake through {@code InvalidDeclaration}. Per call, {@code DistributedLockAdvisor} matches the
 * method, {@code DistributedLockInterceptor} has {@code LockResolver} evaluate the keys into a lock and runs the
 * {@code LockedCall}: synchronously (released on return, or after the surrounding transaction through
 * {@code ReleaseAfterTransaction}), as a {@code CompletionStage} ({@code FutureLockedCall}) or as a publisher
 * ({@code ReactiveLockedCall}); {@code AdviceAttempt} reports each attempt to the listeners. For scheduled jobs,
 * {@code MinimumHolds} keeps a lock for the rest of its {@code holdAtLeast} after a short run, and
 * {@code SkippedRuns} logs and reports the runs of {@code @Scheduled} methods skipped because the job was locked.
 *
 * <p>API: {@code DistributedLockAdvisor}. The other public types ({@code LockOperationSource},
 * {@code LockedMethodValidator}, {@code DistributedLockInterceptor}, {@code TransactionAdviceOrderVerifier},
 * {@code LockExpressionRoot}) are public only for the auto-configuration or for SpEL, and may change in any release;
 * everything else is package-private.
 */
@NullMarked
package dev.distlock.spring.aop;

import org.jspecify.annotations.NullMarked;
