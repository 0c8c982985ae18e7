/**
 * Testcontainers support: {@code @ServiceConnection(type = LockRedisConnectionDetails.class)} on a Redis container
 * makes it the locks' dedicated Redis.
 */
@NullMarked
package dev.distlock.spring.boot.testcontainers;

import org.jspecify.annotations.NullMarked;
