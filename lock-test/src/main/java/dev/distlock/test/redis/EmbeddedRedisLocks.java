package dev.distlock.test.redis;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On a plain JUnit Jupiter test class (no Spring): one real {@code redis-server} for the class, started before its
 * first test and stopped after its last, and a {@link dev.distlock.core.RedisLockClient} on it. Test and lifecycle
 * methods (and constructors) can take an {@link EmbeddedRedis}, a {@code RedisLockClient} (also as
 * {@code LockClient}) or a {@code LockTemplate} with the default wait and policy; the client is closed before the
 * server stops. {@code @Nested} classes share their enclosing class's server and client.
 *
 * <p>For a {@code @SpringBootTest} use {@link AutoConfigureEmbeddedRedis}: a Spring context outlives its test class
 * (the test framework caches it), so a server stopped after the class would be gone before the context closes. This
 * extension refuses Spring test classes for that reason.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(EmbeddedRedisLocksExtension.class)
public @interface EmbeddedRedisLocks {
}
