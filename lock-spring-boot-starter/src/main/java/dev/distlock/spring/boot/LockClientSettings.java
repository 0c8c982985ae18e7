package dev.distlock.spring.boot;

import java.time.Duration;

import dev.distlock.core.LockClientOptions;

/**
 * The {@code distributed-lock.*} properties, checked and turned into what the lock clients are built from, once per
 * application (by {@link LockOptionsMapper#settings}): every bean that needs options takes this bean, so an invalid
 * property fails the start before any connection is opened, also when the application brings its own lock client.
 *
 * @param clientOptions the options of the {@link dev.distlock.core.RedisLockClient}
 * @param redLockOptions the options of the {@link dev.distlock.core.RedLockClient}: the same without replica
 * acknowledgement, which does not apply to independent masters
 * @param waitTime {@code distributed-lock.wait-time}, the default wait of the template and the annotation
 * @param reconnectMaxDelay {@code distributed-lock.reconnect-max-delay}, the cap of Lettuce's reconnect back-off
 */
record LockClientSettings(LockClientOptions clientOptions, LockClientOptions redLockOptions, Duration waitTime,
        Duration reconnectMaxDelay) {
}
