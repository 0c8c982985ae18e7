/**
 * The {@link dev.distlock.spring.aop.DistributedLock @DistributedLock} annotation and the Spring AOP machinery behind
 * it: an infrastructure advisor and method interceptor (no AspectJ needed), the lock types of
 * {@link dev.distlock.spring.aop.LockType} and multi-key locks, SpEL key evaluation, startup validation of every
 * annotated method, {@link dev.distlock.spring.aop.LockContext} for reading the current lease, and
 * {@link dev.distlock.spring.aop.LockAdviceListener} for observing acquisitions (metrics).
 */
@NullMarked
package dev.distlock.spring.aop;

import org.jspecify.annotations.NullMarked;
