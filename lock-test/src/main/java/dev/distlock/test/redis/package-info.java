/**
 * A real embedded {@code redis-server} for tests: {@link dev.distlock.test.redis.EmbeddedRedisLocks} (a JUnit
 * Jupiter extension for tests without Spring) and {@link dev.distlock.test.redis.AutoConfigureEmbeddedRedis} (for
 * Spring Boot tests, stopped after the context closes), both over {@link dev.distlock.test.redis.EmbeddedRedis}.
 */
@NullMarked
package dev.distlock.test.redis;

import org.jspecify.annotations.NullMarked;
