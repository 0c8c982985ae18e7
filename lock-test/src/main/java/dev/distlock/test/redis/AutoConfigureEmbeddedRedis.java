package dev.distlock.test.redis;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a {@code @SpringBootTest} (or other Spring test) class: a real {@code redis-server} for the test's application
 * context, and the application and the lock starter pointed at it.
 *
 * <p>The server starts when the context is created, before any bean, on a free port. {@code spring.data.redis.url},
 * {@code .host} and {@code .port} are set to it (so the application's own Redis use goes there too); when the
 * application gives the locks a dedicated connection ({@code distributed-lock.redis.url}, {@code .host},
 * {@code .sentinel.master} or {@code .cluster.nodes}), that connection is pointed at it as a plain standalone one.
 * These properties take precedence over the application's configuration.
 *
 * <p>The server stops when the context closes, <em>after</em> every bean has been destroyed: the lock client, the
 * scheduler and whatever else still talks to Redis while shutting down find it up. Contexts that the test framework
 * caches (the usual case) keep their server until they are closed, at the latest when the test JVM exits. Tests whose
 * contexts differ get a server each.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface AutoConfigureEmbeddedRedis {
}
