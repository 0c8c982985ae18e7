package dev.distlock.spring.boot.observation;

import dev.distlock.core.RedLockClient;
import dev.distlock.core.RedisLockClient;
import dev.distlock.spring.boot.DistributedLockAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;

/**
 * Micrometer metrics of distributed locks, when Micrometer is on the class path and the application has a
 * {@link MeterRegistry}:
 * <ul>
 * <li>{@code distlock.leases.active} and {@code distlock.locks.waiting}: gauges of the {@link RedisLockClient}
 * (tag {@code client=redis}; the {@link RedLockClient}'s active leases with {@code client=redlock});</li>
 * <li>{@code distlock.acquire}: a timer of every {@code @DistributedLock} acquisition, tagged {@code name} (the
 * annotation's static name, or {@code ClassName.methodName}) and {@code outcome} ({@code acquired},
 * {@code not_acquired}, {@code failed});</li>
 * <li>{@code distlock.lease.lost}: a counter of {@code @DistributedLock} leases lost before release, tagged
 * {@code name} and {@code reason} (the name of {@link LockObservations}' observation of every lost lease);</li>
 * <li>{@code distlock.scheduled.skipped}: a counter of the skipped runs of {@code @Scheduled} methods, tagged
 * {@code name}.</li>
 * </ul>
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class, afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple"
                + ".SimpleMetricsExportAutoConfiguration",
        // the same three on Spring Boot 3.5
        "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBooleanProperty(name = "distributed-lock.enabled", matchIfMissing = true)
@ConditionalOnSingleCandidate(MeterRegistry.class)
@ConditionalOnBean(RedisLockClient.class)
public final class DistributedLockMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    LockMetrics distributedLockMetrics(MeterRegistry meterRegistry, RedisLockClient redisLockClient,
            ObjectProvider<RedLockClient> redLockClient) {
        return new LockMetrics(meterRegistry, redisLockClient, redLockClient.getIfUnique());
    }
}
