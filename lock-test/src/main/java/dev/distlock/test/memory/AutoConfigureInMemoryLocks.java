package dev.distlock.test.memory;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

/**
 * On a {@code @SpringBootTest} (or other Boot test) class: the starter runs on an {@link InMemoryLockClient} bean
 * instead of Redis. {@code LockTemplate}, {@code ReactiveLockTemplate} and {@code @DistributedLock} work as usual; the
 * starter opens no Redis connection for the locks, and its Redis-only beans (actuator endpoint, health, metrics) are
 * not created. Inject the {@link InMemoryLockClient} to make a lock busy, lose a lease or slow an acquire; it is
 * {@linkplain InMemoryLockClient#reset() reset} after every test method, since cached contexts share it.
 * {@code @DistributedLock(type = REDLOCK)} methods still need a {@code RedLockClient}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration(InMemoryLockAutoConfiguration.class)
public @interface AutoConfigureInMemoryLocks {
}
