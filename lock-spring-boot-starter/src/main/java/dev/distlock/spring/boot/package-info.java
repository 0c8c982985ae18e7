/**
 * Spring Boot auto-configuration of distributed locks: the {@code distributed-lock.*} properties, the
 * {@link dev.distlock.core.RedisLockClient} and {@link dev.distlock.core.LockTemplate} beans, and the
 * {@code @DistributedLock} advisor.
 */
@NullMarked
package dev.distlock.spring.boot;

import org.jspecify.annotations.NullMarked;
