/**
 * What an application writes to lock a method: {@link dev.distlock.spring.annotation.DistributedLock @DistributedLock}
 * with its {@link dev.distlock.spring.annotation.LockType} and
 * {@link dev.distlock.spring.annotation.OnNotAcquired} attributes, {@link dev.distlock.spring.annotation.LockContext}
 * for reading the current lease inside an advised method, and
 * {@link dev.distlock.spring.annotation.LockAdviceListener} for observing the advice's acquisitions (metrics).
 *
 * <p>This package is the API; the advice that acts on it lives in {@code dev.distlock.spring.aop}, and this package
 * depends on nothing there. (Before 0.1.0 these types were in {@code dev.distlock.spring.aop}.)
 */
@NullMarked
package dev.distlock.spring.annotation;

import org.jspecify.annotations.NullMarked;
