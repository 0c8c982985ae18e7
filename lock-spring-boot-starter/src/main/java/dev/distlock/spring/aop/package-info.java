/**
 * The {@link dev.distlock.spring.aop.DistributedLock @DistributedLock} annotation and the Spring AOP machinery behind
 * it: an infrastructure advisor and method interceptor (no AspectJ needed), SpEL key evaluation, startup validation of
 * every annotated method, and {@link dev.distlock.spring.aop.LockContext} for reading the current lease.
 */
@NullMarked
package dev.distlock.spring.aop;

import org.jspecify.annotations.NullMarked;
