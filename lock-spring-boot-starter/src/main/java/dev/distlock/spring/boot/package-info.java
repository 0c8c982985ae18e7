/**
 * Spring Boot auto-configuration of distributed locks: the {@code distributed-lock.*} properties, the
 * {@link dev.distlock.core.RedisLockClient} (standalone, Sentinel or Cluster), {@link dev.distlock.core.RedLockClient}
 * and {@link dev.distlock.core.LockTemplate} beans, the {@code @DistributedLock} advisor, and Micrometer metrics.
 */
@NullMarked
package dev.distlock.spring.boot;

import org.jspecify.annotations.NullMarked;
